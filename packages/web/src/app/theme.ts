import { createTheme, rem, type MantineColorsTuple } from '@mantine/core';

/** A deep, quiet blue: the colour of a product that keeps things safe rather than one that sells. */
const coffer: MantineColorsTuple = [
  '#ecf2fc',
  '#d8e2f4',
  '#adc2e8',
  '#7fa0dc',
  '#5983d1',
  '#4171cb',
  '#3467c9',
  '#2656b2',
  '#1f4b99',
  '#143f87',
];

/**
 * System fonts only: an end-to-end encrypted product should not ask a font CDN for anything,
 * and system fonts render at once.
 */
const fontFamily =
  "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', 'Noto Sans', 'Liberation Sans', Arial, sans-serif";

/** The spec's layout breakpoint: 991px and below is the mobile layout (sidenav behind a burger). */
export const LAYOUT_BREAKPOINT_PX = 991;

export const theme = createTheme({
  primaryColor: 'coffer',
  primaryShade: { light: 7, dark: 5 },
  colors: { coffer },
  fontFamily,
  headings: {
    fontFamily,
    fontWeight: '650',
    sizes: { h1: { fontSize: rem(30), lineHeight: '1.25' } },
  },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Mantine's defaults, written out because CSS (postcss.config.cjs) and layout code rely on them:
  // `md` = 62em = 992px, so `hiddenFrom="md"` shows an element at 991px and below.
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
});
