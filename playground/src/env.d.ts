/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** `on`: a production build that still contains the in-page backend (the e2e suite's). */
  readonly VITE_MOCKYARD_IN_PAGE?: string;
}
