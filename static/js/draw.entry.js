// Applying a new screen: Python renders the whole screen as HTML, and this
// morphs the page into it (idiomorph), so elements that stay keep their
// identity. Focus, a half-typed name and its selection survive without being
// put back by hand, CSS transitions can run from one state to the next, and the
// browser restyles only what changed instead of rebuilding the table on every
// update. Bundled into static/vendor/draw.mjs.

import { Idiomorph } from "idiomorph";

globalThis.quandaryDraw = (root, html) => {
  Idiomorph.morph(root, html, { morphStyle: "innerHTML" });
};
