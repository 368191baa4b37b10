// Stylesheets imported by the page's modules are bundled by scripts/build-devtools-page.mjs.
declare module '*.css';
