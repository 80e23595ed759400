/** `¥3,000`: yen have no minor unit. */
export function formatYen(amount: number): string {
  return `¥${Math.round(amount).toLocaleString('en-US')}`;
}

/** `¥3,000〜¥5,000` */
export function formatYenRange(min: number, max: number): string {
  return min === max ? formatYen(min) : `${formatYen(min)}〜${formatYen(max)}`;
}
