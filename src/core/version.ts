/** The package version reported by the collector's ping (kept equal to package.json by a test). */
export const VERSION = '0.1.0';
