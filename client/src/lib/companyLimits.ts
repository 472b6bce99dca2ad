//! Company branding limits (spec §5, §9; the hub checks the same: docs/api.md "Validation keys").

/** Logo: at most 1 MB. */
export const MAX_LOGO_BYTES = 1_048_576;
/** PNG, JPG and JPEG only. */
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg'] as const;
export const LOGO_EXTENSIONS = ['.png', '.jpg', '.jpeg'] as const;
export const LOGO_ACCEPT = [...LOGO_MIME_TYPES, ...LOGO_EXTENSIONS].join(',');
export const MAX_COMPANY_NAME = 25;
export const MAX_ADDRESS = 200;

/** Why a chosen logo file is refused (an i18n key under `branding.`), or null when it is fine. */
export function logoFileError(file: { name: string; type: string; size: number }): 'logoTooLarge' | 'logoNotImage' | null {
  const name = file.name.toLowerCase();
  const typeOk = (LOGO_MIME_TYPES as readonly string[]).includes(file.type);
  const extOk = LOGO_EXTENSIONS.some((ext) => name.endsWith(ext));
  if (!typeOk || !extOk) return 'logoNotImage';
  if (file.size > MAX_LOGO_BYTES) return 'logoTooLarge';
  return null;
}

/** The company name's inline message: shown once the name reaches the limit. */
export const companyNameAtLimit = (name: string) => name.length >= MAX_COMPANY_NAME;
