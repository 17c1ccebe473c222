/*
 * Applies the stored theme before the first paint (no flash of the wrong theme). Loaded as an
 * external script from index.html's head because the Content-Security-Policy forbids inline
 * scripts. Mirrors the theme machine: light, dark or auto (the default); anything else is auto.
 */
(function () {
  var theme = 'auto';
  try {
    var stored = window.localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark' || stored === 'auto') theme = stored;
  } catch {
    // blocked storage: keep the default
  }
  document.documentElement.setAttribute('data-theme', theme);
})();
