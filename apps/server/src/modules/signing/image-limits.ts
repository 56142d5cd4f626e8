import { imageSize } from 'image-size';

/**
 * Decompression bombs (issue 11, finding 2): a small PNG can declare 14000×14000 pixels and take seconds and hundreds
 * of megabytes to decode. Dimensions are read from the file header before anything decodes it.
 * 40 megapixels is above any phone camera in use (a 200 MP sensor saves 12.5 MP by default; 48 MP modes exist but
 * an ID photo does not need them) — docs/security.md.
 */
const MAX_IMAGE_PIXELS = 40_000_000;
/** A drawn signature is a canvas at most a few thousand pixels wide. */
export const MAX_SIGNATURE_PIXELS = 8_000_000;

export type PixelCheck =
  { ok: true; width: number; height: number } | { ok: false; reason: 'unreadable' | 'too_many_pixels' };

export function checkImagePixels(bytes: Uint8Array, maxPixels = MAX_IMAGE_PIXELS): PixelCheck {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const { width, height } = size;
  if (!width || !height) return { ok: false, reason: 'unreadable' };
  if (width * height > maxPixels) return { ok: false, reason: 'too_many_pixels' };
  return { ok: true, width, height };
}
