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
 * Mantine's red with darker shades from 6 on: red.6 is what filled buttons, the light variant's text
 * and form errors (`--mantine-color-error`) use, and Mantine's #fa5252 gives white text only 3.3:1
 * and red text on white 3.3:1, under WCAG AA's 4.5:1. #c92a2a gives 5.5:1 on white (5.1:1 on the
 * light variant's tint). The product spec names the snackbar colours (success, danger, warning),
 * not their shades.
 */
const red: MantineColorsTuple = [
  '#fff5f5',
  '#ffe3e3',
  '#ffc9c9',
  '#ffa8a8',
  '#ff8787',
  '#ff6b6b',
  '#c92a2a',
  '#b02525',
  '#9c1f1f',
  '#871a1a',
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
  colors: { coffer, red },
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
