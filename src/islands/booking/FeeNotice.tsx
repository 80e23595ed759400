/**
 * The store's cancellation policy as it applies now: the fee the server computed (free until …, or
 * ¥X per person from now), then the store's own wording. The confirmation before booking, the
 * cancel confirmation and the guest's booking made all show it, so a fee is never a surprise.
 */
import type { Translate } from '../../lib/contract/messages';
import type { CancellationFeeJson } from '../../lib/contract/responses';
import { policyBesideFee } from '../../lib/contract/fee';

interface Props {
  t: Translate;
  policy: string;
  fee?: CancellationFeeJson;
  id?: string;
}

export default function FeeNotice({ t, policy, fee, id }: Props) {
  const wording = policyBesideFee(fee?.message ?? '', policy);
  return (
    <div id={id} className="space-y-1" data-testid="fee-notice">
      <p className="font-medium">{t('booking.summary.policy')}</p>
      {fee && (
        <p className={fee.applies === 'due' ? 'alert alert-warning p-3 text-sm' : 'text-sm font-medium'} data-testid="fee" data-applies={fee.applies}>
          {fee.message}
        </p>
      )}
      {wording !== null && <p className="text-sm">{wording || t('booking.policyNone')}</p>}
    </div>
  );
}
