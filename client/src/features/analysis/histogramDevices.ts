//! Device types whose static result shows the histogram and its download (spec §2): seating,
//! horse and mattress devices.

const HISTOGRAM_TYPES: ReadonlySet<string> = new Set([
  'Seating Mat',
  'Seating Mat IoT',
  'Seating Mat IoT XL',
  'Sensing Horse',
  'Mattress Mat',
  'Mattress Mat IoT',
]);

export function showsHistogram(deviceType: string): boolean {
  return HISTOGRAM_TYPES.has(deviceType);
}
