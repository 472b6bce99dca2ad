export { CaptureControls } from './CaptureControls';
export type { CaptureKind } from './captureRules';
