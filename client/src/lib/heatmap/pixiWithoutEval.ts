// pixi.js's eval-free shader and uniform code, for the hub's Content-Security-Policy (no eval).
// Loaded lazily with pixi.js itself by the renderer; a side-effect import needs no types.
import 'pixi.js/unsafe-eval';
