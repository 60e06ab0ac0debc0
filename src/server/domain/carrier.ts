/**
 * The carrier of a parcel when the shipment record does not name it, from the tracking number's format.
 * The answer is an image name under /images/carrier/, or 'no-image'.
 */
export function carrierFromTracking(tracking: string): string {
  const t = tracking.trim().toUpperCase();
  if (/^1Z[0-9A-Z]{16}$/.test(t)) return 'ups';
  if (/^(JJD|JVGL)\d{10,}$/.test(t) || /^00340434\d{12}$/.test(t) || /^\d{20}$/.test(t)) return 'dhl';
  if (/^0\d{13}$/.test(t)) return 'dpd';
  if (/^\d{11,12}$/.test(t)) return 'gls';
  return 'no-image';
}
