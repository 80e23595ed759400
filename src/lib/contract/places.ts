/**
 * Place names (areas and stations) and store features the catalogue knows, keyed as the messages name them
 * (`discovery.place.<key>`, `discovery.tag.<key>`), each with the Japanese the database holds. A store's
 * own area, station or feature not listed here is shown as written.
 */
import { FILTER_TAGS } from './enums';

export const PLACES = {
  shibuya: '渋谷',
  shinjuku: '新宿',
  ginza: '銀座',
  ebisu: '恵比寿',
  roppongi: '六本木',
  ikebukuro: '池袋',
  ueno: '上野',
  shimbashi: '新橋',
  kanda: '神田',
  nakameguro: '中目黒',
  shinsen: '神泉',
  meiji_jingumae: '明治神宮前',
  ueno_hirokoji: '上野広小路',
  daikanyama: '代官山',
  roppongi_itchome: '六本木一丁目',
  uchisaiwaicho: '内幸町',
  okachimachi: '御徒町',
  shinjuku_sanchome: '新宿三丁目',
  higashi_ikebukuro: '東池袋',
  higashi_ginza: '東銀座',
  shiodome: '汐留',
  awajicho: '淡路町',
  yutenji: '祐天寺',
  nishi_shinjuku: '西新宿',
  ginza_itchome: '銀座一丁目',
  azabu_juban: '麻布十番',
} as const;

/** Store features beyond the filter's (FILTER_TAGS), as the demo catalogue and store hosts write them. */
export const STORE_TAGS = {
  ...FILTER_TAGS,
  banquet: '宴会可',
  sake: '日本酒が豊富',
  smoking_booth: '喫煙ブースあり',
  counter: 'カウンター席',
  solo_friendly: '一人でも入りやすい',
  wagyu: '黒毛和牛',
  smokeless_grill: '無煙ロースター',
  all_you_can_eat: '食べ放題あり',
  omakase: 'おまかせコース',
  business_dinner: '接待向け',
  free_refill: '替え玉無料',
  late_bowl: '締めの一杯',
  calm: '落ち着いた空間',
  wine: 'ワインが豊富',
  date: 'デート向け',
  terrace: 'テラス席',
  anniversary: '記念日',
  round_table: '円卓あり',
  makgeolli: 'マッコリが豊富',
  after_party: '二次会向け',
  cocktails: 'カクテルが豊富',
  aged_beef: '熟成肉',
  e_money: '電子マネー可',
  wifi: 'Wi-Fiあり',
} as const;
