/** Build-time configuration of the web app, read from `VITE_*` variables with working defaults. */
export interface AppConfig {
  /** Name shown in the footer next to the company link. */
  readonly companyName: string;
  readonly links: {
    readonly terms: string;
    readonly privacy: string;
    readonly faq: string;
    readonly about: string;
    /** VITE_COMPANY_URL, else the About page (the built-in one says who runs Coffer). */
    readonly company: string;
  };
}

/** An unset or blank variable falls back to the default. */
function pick(value: string | undefined, fallback: string): string {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? fallback : trimmed;
}

const about = pick(import.meta.env.VITE_ABOUT_URL, '/about');

export const appConfig: AppConfig = {
  companyName: pick(import.meta.env.VITE_COMPANY_NAME, 'Coffer'),
  links: {
    terms: pick(import.meta.env.VITE_TERMS_URL, '/terms'),
    privacy: pick(import.meta.env.VITE_PRIVACY_URL, '/privacy'),
    faq: pick(import.meta.env.VITE_FAQ_URL, '/faq'),
    about,
    // The spec's footer links to a company site: with none configured, the About page stands in.
    company: pick(import.meta.env.VITE_COMPANY_URL, about),
  },
};
