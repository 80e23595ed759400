/**
 * The heart of a store (src/components/FavouriteToggle.astro renders it, and its script): a plain
 * form (POST /favourites/{id}) that works without JavaScript. Built as one string because a
 * listing repeats it on every card (src/server/render/storeCard.ts).
 *
 * Each repeat carries only what differs: the heart's shape is sent once per page (the first heart
 * defines it, the others <use> it), and a guest's heart, which the script leaves alone, carries no
 * labels for it.
 */
import type { T } from '../../i18n';
import { attr, text } from './html';

export interface HeartProps {
  storeId: number;
  storeName: string;
  on: boolean;
  signedIn: boolean;
  /** A labelled button on the store page; an icon on cards. */
  variant: 'icon' | 'full';
  /** The first heart of the page defines the shape the others use. */
  defineHeart: boolean;
}

const SHAPE =
  '<symbol id="icon-heart" viewBox="0 0 24 24"><path d="M12 21s-7.5-4.6-9.5-9.3C1.2 8.4 3.3 5 6.8 5c2 0 3.4 1 4.2 2.3h2C13.8 6 15.2 5 17.2 5c3.5 0 5.6 3.4 4.3 6.7C19.5 16.4 12 21 12 21z"></path></symbol>';

export function heartHtml(p: HeartProps, t: T): string {
  const add = t('discovery.favourite.add');
  const remove = t('discovery.favourite.remove');
  const icon = p.variant === 'icon';
  return (
    `<form method="post"${attr('action', `/favourites/${p.storeId}`)}${attr('data-favourite-form', p.signedIn ? '' : undefined)}` +
    `${attr('data-added', p.signedIn ? t('discovery.favourite.added') : undefined)}${attr('data-removed', p.signedIn ? t('discovery.favourite.removed') : undefined)}` +
    `${attr('data-failed', p.signedIn ? t('discovery.favourite.failed') : undefined)}>` +
    `<input type="hidden" name="favourite"${attr('value', p.on ? '0' : '1')}>` +
    `<button type="submit"${attr('aria-pressed', p.on ? 'true' : 'false')}${attr('aria-label', icon ? `${p.on ? remove : add}: ${p.storeName}` : undefined)}` +
    `${attr('title', p.signedIn ? undefined : t('discovery.favourite.signIn'))}${attr('data-favourite', p.storeId)}` +
    `${attr('data-label-on', p.signedIn ? (icon ? `${remove}: ${p.storeName}` : remove) : undefined)}` +
    `${attr('data-label-off', p.signedIn ? (icon ? `${add}: ${p.storeName}` : add) : undefined)}` +
    `${attr('class', icon ? 'group btn btn-circle btn-ghost bg-base-100/90' : 'group btn btn-outline shrink-0 whitespace-nowrap')}>` +
    `<svg aria-hidden="true" viewBox="0 0 24 24" class="heart-icon">${p.defineHeart ? SHAPE : ''}<use href="#icon-heart"></use></svg>` +
    `${icon ? '' : `<span data-favourite-text>${text(p.on ? remove : add)}</span>`}</button></form>`
  );
}
