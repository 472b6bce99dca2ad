//! Public surface of the ward board feature.
export { WardBoardPage } from './WardBoardPage';
export { WardBoardLink } from './WardBoardLink';
export type { WardRendererFactory } from './wardRenderer';
export { PairScreenPage } from './PairScreenPage';
export { BoardTokenRenewer } from './BoardTokenRenewer';
export { unitPath } from './unit';
