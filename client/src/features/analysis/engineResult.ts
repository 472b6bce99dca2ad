//! The analysis engine's figures (docs/analysis.md, `actors::analysis::AnalysisResult` serialised as
//! `{ analysisType, result }`), read from the record's `analysisResult` parameter. Records whose
//! figures were not stored (older records, or a hub that stores only the spec's parameters) have
//! none: the views then show what the record itself holds (maps, frames, seating parameters).

import type { WeightCalibration } from '../../lib/pressureUnits';
import { parameter, type AnalysisRecord } from './record';

export const ENGINE_RESULT_PARAMETER = 'analysisResult';

export interface Histogram {
  binUpperBounds: number[];
  counts: number[];
  percentages: number[];
}

export interface MattressResult {
  profile: Array<{ positionCm: number; totalPressure: number }>;
  profileLengthCm: number;
  contactAreaCm2: number;
  heightCm: number | null;
  weightKg: number | null;
  bmi: number | null;
}

export type Point2 = [number, number];
export type Point3 = [number, number, number];

export interface StaticResult {
  LeftCenterOfPressure: Point2 | null;
  RightCenterOfPressure: Point2 | null;
  GlobalCenterOfPressure: Point2 | null;
  LeftPressureMaximum: Point3 | null;
  RightPressureMaximum: Point3 | null;
  GlobalPressureMaximum: Point3 | null;
  LeftFrontPressureDistribution: number;
  LeftBackPressureDistribution: number;
  LeftGlobalPressureDistribution: number;
  RightFrontPressureDistribution: number;
  RightBackPressureDistribution: number;
  RightGlobalPressureDistribution: number;
  LeftFrontSurface: number;
  LeftBackSurface: number;
  LeftGlobalSurface: number;
  RightFrontSurface: number;
  RightBackSurface: number;
  RightGlobalSurface: number;
  activePointsTotal: number;
  avgPressure: number;
  maxPressure: number;
  medianPressure: number;
  leftPercentage: number;
  rightPercentage: number;
  footprintEdgeWarning: boolean;
  feetSeparated: boolean;
  histogram: Histogram;
  mattress?: MattressResult;
  /** The weighed patient's calibration the pressures are read with (spec §9), if any. */
  pressureCalibration?: WeightCalibration | null;
}

/** A seat's or a saddle's static figures (issue 21): pressures in mmHg, positions in cm. */
export interface SeatingStaticResult {
  leftLoadPercent: number;
  rightLoadPercent: number;
  frontLoadPercent: number;
  backLoadPercent: number;
  leftIschial: { positionCm: Point2; peakMmhg: number } | null;
  rightIschial: { positionCm: Point2; peakMmhg: number } | null;
  peakPressureIndexMmhg: number;
  dispersionIndex: number;
  contactAreaCm2: number;
  maxPressureMmhg: number;
  /** The highest cell was at the sensor's full scale: the maximum (and a peak equal to it) is "≥". Absent when not. */
  maxAtFullScale?: boolean;
  meanPressureMmhg: number;
  centerOfPressureCm: Point2 | null;
  histogram: Histogram;
  /** The weighed patient's calibration the mmHg figures were computed with (spec §9), if any. */
  pressureCalibration?: WeightCalibration | null;
}

export type BodyRegion = 'head' | 'shoulders' | 'back' | 'sacrum' | 'legs' | 'heels';

/** A bed's static figures (issue 21): body regions head to heels, pressures in mmHg. */
export interface BedStaticResult {
  regions: Array<{ region: BodyRegion; peakMmhg: number; meanMmhg: number; contactAreaCm2: number }>;
  peakRegion: BodyRegion | null;
  maxPressureMmhg: number;
  /** The highest cell was at the sensor's full scale: the maximum (and a peak equal to it) is "≥". Absent when not. */
  maxAtFullScale?: boolean;
  meanPressureMmhg: number;
  mattress: MattressResult;
  histogram: Histogram;
}

export interface Rockers {
  stanceS: number;
  heelRockerS: number;
  ankleRockerS: number;
  forefootRockerS: number;
  heelRockerShare: number;
  ankleRockerShare: number;
  forefootRockerShare: number;
}

export interface FootGait {
  contactFrames: number;
  rockers: Rockers | null;
  /** `dynamic.error` or `dynamic.error2`. */
  error: string | null;
}

export interface DynamicResult {
  left: FootGait;
  right: FootGait;
  feetSeparated: boolean;
  durationS: number;
}

export interface TimePoint {
  t: number;
  value: number;
}

export interface BalanceResult {
  leftScatter: Point2[];
  bodyScatter: Point2[];
  rightScatter: Point2[];
  lateral: TimePoint[];
  frontBack: TimePoint[];
  swayPathLengthCm: number;
  meanVelocityCmS: number;
  confidenceEllipseAreaCm2: number;
  durationS: number;
  /** The 95 % ellipse of the body centres, cm (absent on older records). */
  confidenceEllipse?: { semiMajorCm: number; semiMinorCm: number; angleDeg: number } | null;
  /** Cell spacing, cm (absent on older records). */
  cellCm?: number | null;
}

export interface BodyCentreResult {
  distanceCm: number;
  quality: string;
  meanCenterOfPressure: Point2;
  target: Point2;
  trace: Point2[];
  rings: Array<{ radius: number; share: number }>;
}

export type EngineResult =
  | { analysisType: 'Static'; result: StaticResult }
  | { analysisType: 'seatingStatic'; result: SeatingStaticResult }
  | { analysisType: 'bedStatic'; result: BedStaticResult }
  | { analysisType: 'Dynamic'; result: DynamicResult }
  | { analysisType: 'Balance'; result: BalanceResult }
  | { analysisType: 'Fitting' | 'Rehab'; result: BodyCentreResult }
  | { analysisType: 'seatingDynamic'; result: unknown };

/** The figures' kinds a record of each `analysisType` may hold: a static record's figures are
 * feet, a seat or a bed, as its device's analysis family read the capture. */
const FIGURES_OF: Readonly<Record<string, readonly string[]>> = {
  Static: ['Static', 'seatingStatic', 'bedStatic'],
};

/** The engine's figures stored with the record, when they are there and of the record's kind. */
export function engineResult(record: AnalysisRecord): EngineResult | null {
  const value = parameter(record, ENGINE_RESULT_PARAMETER) as { analysisType?: unknown; result?: unknown } | undefined;
  if (!value || typeof value !== 'object' || typeof value.result !== 'object' || value.result === null) return null;
  const allowed = FIGURES_OF[record.analysisType] ?? [record.analysisType];
  if (typeof value.analysisType !== 'string' || !allowed.includes(value.analysisType)) return null;
  return value as EngineResult;
}

interface ResultsByKind {
  Static: StaticResult;
  seatingStatic: SeatingStaticResult;
  bedStatic: BedStaticResult;
  Dynamic: DynamicResult;
  Balance: BalanceResult;
  Fitting: BodyCentreResult;
  Rehab: BodyCentreResult;
  seatingDynamic: unknown;
}

/** The figures of a kind, or null. */
export function resultOf<K extends keyof ResultsByKind>(record: AnalysisRecord, kind: K): ResultsByKind[K] | null {
  const found = engineResult(record);
  return found && found.analysisType === kind ? (found.result as ResultsByKind[K]) : null;
}
