// Only the variables declared below may be read from `import.meta.env`, and they are typed.
interface ViteTypeOptions {
  strictImportMetaEnv: unknown;
}

interface ImportMetaEnv {
  readonly VITE_TERMS_URL?: string;
  readonly VITE_PRIVACY_URL?: string;
  readonly VITE_FAQ_URL?: string;
  readonly VITE_ABOUT_URL?: string;
  readonly VITE_COMPANY_URL?: string;
  readonly VITE_COMPANY_NAME?: string;
}
