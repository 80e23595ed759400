import type { T } from '../i18n';

/** What the favourite toggle (src/islands/FavouriteButton.tsx) says, in the reader's language. */
export function favouriteLabels(t: T) {
  return {
    add: t('discovery.favourite.add'),
    remove: t('discovery.favourite.remove'),
    added: t('discovery.favourite.added'),
    removed: t('discovery.favourite.removed'),
    failed: t('discovery.favourite.failed'),
    signIn: t('discovery.favourite.signIn'),
  };
}
