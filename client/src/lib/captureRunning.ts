//! Whether a capture of this browser's user is running on a device (from the click until the
//! capture is loaded). Written by the capture feature, read by the streaming control, which hides
//! its start button meanwhile (spec §4).

import { atom } from 'jotai';
import { family } from './family';

export const captureRunningFamily = family((_deviceId: string) => atom(false));
