//! How a posture reading is said, on the ward tile and the device page's clock (one wording): the
//! posture's name, its confidence as a bare percentage ("Right Lateral · 99 %", which fits the wall
//! board's narrow column whole), said in full ("99 % sure") in a title and to screen readers, and
//! "uncertain" where the hub is not certain of it (`postureCertain`: below the classifier's one
//! threshold, it takes no turn decision). Pure.

import type { TFunction } from 'i18next';
import type { useFormat } from './format';

/** The hub's reading as the board and the device page's clock carry it. */
export interface PostureFields {
  posture: string | null | undefined;
  postureConfidence: number | null | undefined;
  postureCertain: boolean | null | undefined;
}

export interface PostureLine {
  name: string;
  confidence: string | null;
  uncertain: string | null;
  /** The shown line: name · confidence · uncertain. */
  whole: string;
  /** The line said in full, for a title and screen readers. */
  full: string;
}

/** The line of a reading; null while nobody is present. */
export function postureLine(reading: PostureFields, t: TFunction, fmt: Pick<ReturnType<typeof useFormat>, 'percent' | 'number'>): PostureLine | null {
  if (!reading.posture) return null;
  const name = t(`pages.position.${reading.posture}`, { defaultValue: reading.posture });
  const share = reading.postureConfidence != null ? Math.round(reading.postureConfidence * 100) / 100 : null;
  const confidence = share != null ? fmt.percent(share) : null;
  const said = share != null ? t('ward.confidence', { value: fmt.number(share * 100, 0) }) : null;
  const uncertain = reading.postureCertain === false ? t('pages.position.uncertain') : null;
  const join = (parts: Array<string | null>) => parts.filter(Boolean).join(' · ');
  return { name, confidence, uncertain, whole: join([name, confidence, uncertain]), full: join([name, said, uncertain]) };
}
