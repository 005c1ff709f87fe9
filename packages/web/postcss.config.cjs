// Mantine's PostCSS preset (rem/em functions, light-dark, mixins) and the breakpoint variables
// that CSS modules use in media queries. Keep the breakpoints in sync with `src/app/theme.ts`.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '36em',
        'mantine-breakpoint-sm': '48em',
        'mantine-breakpoint-md': '62em',
        'mantine-breakpoint-lg': '75em',
        'mantine-breakpoint-xl': '88em',
        // The spec's layout breakpoint: at 991px and below the sidenav collapses behind a burger.
        'layout-mobile-max': '991px',
        'layout-desktop-min': '992px',
      },
    },
  },
};
