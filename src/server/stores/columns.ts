/**
 * The columns of a store that every read for diners takes, a listing card's and the store page's
 * alike (joined with its area for the area's name): one list, so both name a store the same way.
 */
import { areas, stores } from '../db/schema';

export const storeFactColumns = {
  id: stores.id,
  name: stores.name,
  nameKana: stores.nameKana,
  genre: stores.genre,
  areaId: stores.areaId,
  areaName: areas.name,
  station: stores.station,
  walkMinutes: stores.walkMinutes,
  budgetMin: stores.budgetMin,
  budgetMax: stores.budgetMax,
  photos: stores.photos,
  lat: stores.lat,
  lng: stores.lng,
  tags: stores.tags,
  stayMinutes: stores.stayMinutes,
};
