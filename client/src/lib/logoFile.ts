//! Reads a chosen logo file into a `data:` URL and checks its first bytes are PNG or JPEG, whatever
//! its name says (the hub checks the same: `logoNotImage`).

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

export function hasImageMagic(bytes: ArrayLike<number>): boolean {
  const starts = (magic: number[]) => magic.every((b, i) => bytes[i] === b);
  return starts(PNG_MAGIC) || starts(JPEG_MAGIC);
}

/** The first bytes of a base64 `data:` URL. */
export function dataUrlHead(dataUrl: string, count = 8): number[] {
  const comma = dataUrl.indexOf(',');
  if (comma < 0) return [];
  const text = atob(dataUrl.slice(comma + 1, comma + 1 + Math.ceil(count / 3) * 4));
  return Array.from(text.slice(0, count), (c) => c.charCodeAt(0));
}

export function readFileAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}
