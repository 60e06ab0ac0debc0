import { drawingSVG, qrcode } from 'bwip-js/browser';

/**
 * A card's text as a QR code (an SVG data URL, drawn by bwip-js's named encoder): a 40-character card in
 * Code 128 would be wider than a badge. Loaded when a badge is shown, so bwip-js is a download of its own.
 * Quiet zone 4 modules, white whatever the screen (as the scanner test sheet draws its QR code).
 */
export function badgeSvgDataUrl(cardText: string): string {
  const svg = qrcode(
    { bcid: 'qrcode', text: cardText, scale: 4, padding: 4, backgroundcolor: 'FFFFFF' },
    drawingSVG(),
  );
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
