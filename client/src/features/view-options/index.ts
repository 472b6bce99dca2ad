//! Public surface of the view-options feature: the toolbar a device page places above its map.
export { ViewOptionsToolbar } from './ViewOptionsToolbar';
