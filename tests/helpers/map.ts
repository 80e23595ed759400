import { expect, type Locator } from '@playwright/test';

/**
 * A store's own pin on a results map (`map`: the map's region), reached from the keyboard: close
 * pins start as a cluster, and Enter on a cluster zooms in (or spreads them) until stores are pins
 * of their own. Which stores are close depends on which are listed, so on the hour: never assume
 * the first marker is a store's.
 */
export async function storePin(map: Locator): Promise<Locator> {
  const single = map.locator('.leaflet-marker-icon[data-store-id]');
  for (let i = 0; i < 6 && (await single.count()) === 0; i++) {
    const clusters = await map.locator('.marker-cluster').count();
    await map.locator('.marker-cluster').first().press('Enter');
    await expect.poll(async () => (await single.count()) > 0 || (await map.locator('.marker-cluster').count()) !== clusters).toBe(true);
  }
  await expect(single.first()).toBeVisible();
  return single.first();
}
