/**
 * One mailbox, however its address is written. Limits on mail (per recipient, per contact) count
 * mailboxes, not strings: `Victim+1@Example.net`, `victim+2@example.net` and `victim@example.net`
 * reach one person, and so do `j.doe@gmail.com` and `jdoe@googlemail.com`. The address a mail is
 * sent to stays as it was typed; this is only the key it is counted under.
 */

/** Providers that deliver `a.b@` to `ab@`; the value is the domain they are counted under. */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The key of the mailbox an address reaches: lower case, without a `+tag`, and without the dots
 * of providers that ignore them.
 * @example normaliseRecipient(' J.Doe+shop@GoogleMail.com ') // 'jdoe@gmail.com'
 * @example normaliseRecipient('victim+1@example.net') // 'victim@example.net'
 */
export function normaliseRecipient(address: string): string {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf('@');
  if (at <= 0) return a;
  let local = a.slice(0, at);
  let domain = a.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    local = local.replaceAll('.', '');
    domain = dotless;
  }
  return `${local}@${domain}`;
}
