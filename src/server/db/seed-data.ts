/**
 * Fixed word lists for the demo seed (seed.ts). Plain data, no logic beyond lookups.
 *
 * One module: plain word lists for the demo seed, read as one table of demo content; the exports
 * are the lists.
 */
import type { Genre, TableKind } from '../../lib/contract/enums';

/** Relative frequency of each genre in the seed. */
export const GENRE_WEIGHTS: Record<Genre, number> = {
  izakaya: 18,
  yakitori: 9,
  yakiniku: 10,
  sushi: 8,
  ramen: 10,
  washoku: 7,
  italian: 9,
  french: 5,
  chinese: 8,
  korean: 6,
  cafe_bar: 8,
  steak: 4,
};

export interface Station {
  name: string;
  lat: number;
  lng: number;
}

export interface AreaDef {
  slug: string;
  name: string;
  nameKana: string;
  lat: number;
  lng: number;
  stations: Station[];
  /** Address stems (ward + town/chōme); a block/building number is appended. */
  addresses: string[];
}

export const AREAS: AreaDef[] = [
  {
    slug: 'shibuya',
    name: '渋谷',
    nameKana: 'シブヤ',
    lat: 35.6595,
    lng: 139.7005,
    stations: [
      { name: '渋谷駅', lat: 35.658, lng: 139.7016 },
      { name: '神泉駅', lat: 35.6571, lng: 139.6937 },
      { name: '明治神宮前駅', lat: 35.6686, lng: 139.7029 },
    ],
    addresses: [
      '渋谷区道玄坂1丁目',
      '渋谷区道玄坂2丁目',
      '渋谷区宇田川町',
      '渋谷区神南1丁目',
      '渋谷区渋谷1丁目',
      '渋谷区渋谷3丁目',
      '渋谷区桜丘町',
      '渋谷区円山町',
    ],
  },
  {
    slug: 'shinjuku',
    name: '新宿',
    nameKana: 'シンジュク',
    lat: 35.6909,
    lng: 139.7003,
    stations: [
      { name: '新宿駅', lat: 35.6896, lng: 139.7006 },
      { name: '新宿三丁目駅', lat: 35.6906, lng: 139.7048 },
      { name: '西新宿駅', lat: 35.6944, lng: 139.6927 },
    ],
    addresses: ['新宿区新宿3丁目', '新宿区新宿5丁目', '新宿区歌舞伎町1丁目', '新宿区歌舞伎町2丁目', '新宿区西新宿1丁目', '新宿区西新宿7丁目'],
  },
  {
    slug: 'ginza',
    name: '銀座',
    nameKana: 'ギンザ',
    lat: 35.6717,
    lng: 139.765,
    stations: [
      { name: '銀座駅', lat: 35.6717, lng: 139.764 },
      { name: '銀座一丁目駅', lat: 35.6745, lng: 139.767 },
      { name: '東銀座駅', lat: 35.6695, lng: 139.7672 },
    ],
    addresses: ['中央区銀座1丁目', '中央区銀座2丁目', '中央区銀座4丁目', '中央区銀座5丁目', '中央区銀座6丁目', '中央区銀座7丁目', '中央区銀座8丁目'],
  },
  {
    slug: 'ebisu',
    name: '恵比寿',
    nameKana: 'エビス',
    lat: 35.6467,
    lng: 139.7101,
    stations: [
      { name: '恵比寿駅', lat: 35.6467, lng: 139.7101 },
      { name: '代官山駅', lat: 35.6484, lng: 139.7033 },
    ],
    addresses: ['渋谷区恵比寿1丁目', '渋谷区恵比寿4丁目', '渋谷区恵比寿南1丁目', '渋谷区恵比寿西1丁目', '渋谷区広尾1丁目'],
  },
  {
    slug: 'roppongi',
    name: '六本木',
    nameKana: 'ロッポンギ',
    lat: 35.6628,
    lng: 139.7314,
    stations: [
      { name: '六本木駅', lat: 35.6641, lng: 139.7318 },
      { name: '六本木一丁目駅', lat: 35.6655, lng: 139.7391 },
      { name: '麻布十番駅', lat: 35.6547, lng: 139.737 },
    ],
    addresses: ['港区六本木3丁目', '港区六本木4丁目', '港区六本木5丁目', '港区六本木6丁目', '港区六本木7丁目', '港区麻布十番1丁目'],
  },
  {
    slug: 'ikebukuro',
    name: '池袋',
    nameKana: 'イケブクロ',
    lat: 35.7295,
    lng: 139.7109,
    stations: [
      { name: '池袋駅', lat: 35.7295, lng: 139.7109 },
      { name: '東池袋駅', lat: 35.7258, lng: 139.7193 },
    ],
    addresses: ['豊島区西池袋1丁目', '豊島区西池袋3丁目', '豊島区東池袋1丁目', '豊島区南池袋1丁目', '豊島区池袋2丁目'],
  },
  {
    slug: 'ueno',
    name: '上野',
    nameKana: 'ウエノ',
    lat: 35.7138,
    lng: 139.7773,
    stations: [
      { name: '上野駅', lat: 35.7138, lng: 139.7773 },
      { name: '上野広小路駅', lat: 35.7076, lng: 139.7729 },
      { name: '御徒町駅', lat: 35.7075, lng: 139.7747 },
    ],
    addresses: ['台東区上野2丁目', '台東区上野4丁目', '台東区上野6丁目', '台東区東上野3丁目'],
  },
  {
    slug: 'shimbashi',
    name: '新橋',
    nameKana: 'シンバシ',
    lat: 35.6663,
    lng: 139.7583,
    stations: [
      { name: '新橋駅', lat: 35.6663, lng: 139.7583 },
      { name: '汐留駅', lat: 35.6646, lng: 139.76 },
      { name: '内幸町駅', lat: 35.6697, lng: 139.7555 },
    ],
    addresses: ['港区新橋1丁目', '港区新橋2丁目', '港区新橋3丁目', '港区新橋4丁目', '港区東新橋1丁目'],
  },
  {
    slug: 'kanda',
    name: '神田',
    nameKana: 'カンダ',
    lat: 35.6918,
    lng: 139.7709,
    stations: [
      { name: '神田駅', lat: 35.6918, lng: 139.7709 },
      { name: '淡路町駅', lat: 35.6953, lng: 139.7676 },
    ],
    addresses: ['千代田区鍛冶町1丁目', '千代田区鍛冶町2丁目', '千代田区内神田3丁目', '千代田区神田司町2丁目'],
  },
  {
    slug: 'nakameguro',
    name: '中目黒',
    nameKana: 'ナカメグロ',
    lat: 35.6441,
    lng: 139.699,
    stations: [
      { name: '中目黒駅', lat: 35.6441, lng: 139.699 },
      { name: '祐天寺駅', lat: 35.6372, lng: 139.6913 },
    ],
    addresses: ['目黒区上目黒1丁目', '目黒区上目黒2丁目', '目黒区上目黒3丁目', '目黒区中目黒1丁目'],
  },
];

/** [text, katakana] */
export type Word = readonly [string, string];

// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
const JP_WORDS: Word[] = [
  ['千鳥', 'チドリ'], ['風花', 'カザハナ'], ['灯り', 'アカリ'], ['縁', 'エニシ'], ['笑門', 'ワラカド'],
  ['福助', 'フクスケ'], ['大吉', 'ダイキチ'], ['鶴亀', 'ツルカメ'], ['はなび', 'ハナビ'], ['月見', 'ツキミ'],
  ['満月', 'マンゲツ'], ['蔵', 'クラ'], ['錦', 'ニシキ'], ['虎丸', 'トラマル'], ['磯丸', 'イソマル'],
  ['一心', 'イッシン'], ['匠', 'タクミ'], ['結', 'ユイ'], ['まつもと', 'マツモト'], ['たかはし', 'タカハシ'],
  ['花火', 'ハナビ'], ['晴れ間', 'ハレマ'], ['銀次', 'ギンジ'], ['こまち', 'コマチ'], ['桜', 'サクラ'],
  ['楓', 'カエデ'], ['凛', 'リン'], ['宝船', 'タカラブネ'], ['和楽', 'ワラク'], ['朔', 'サク'],
  ['あさひ', 'アサヒ'], ['弁慶', 'ベンケイ'], ['陣屋', 'ジンヤ'], ['天狗', 'テング'], ['ひょうたん', 'ヒョウタン'],
  ['大黒', 'ダイコク'], ['夕凪', 'ユウナギ'], ['翔', 'カケル'], ['源', 'ゲン'], ['ほたる', 'ホタル'],
];

// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
const CN_WORDS: Word[] = [
  ['龍門', 'リュウモン'], ['福満園', 'フクマンエン'], ['桃源', 'トウゲン'], ['慶華', 'ケイカ'], ['金龍', 'キンリュウ'],
  ['萬福', 'マンプク'], ['翠園', 'スイエン'], ['紅蘭', 'コウラン'], ['天府', 'テンプ'], ['好好', 'ハオハオ'],
  ['揚州', 'ヨウシュウ'], ['鳳凰', 'ホウオウ'],
];

// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
const KR_WORDS: Word[] = [
  ['明洞', 'ミョンドン'], ['弘大', 'ホンデ'], ['ハヌル', 'ハヌル'], ['トンム', 'トンム'], ['オンマ', 'オンマ'],
  ['釜山', 'プサン'], ['チング', 'チング'], ['マダン', 'マダン'], ['ソウル', 'ソウル'], ['ナム', 'ナム'],
];

// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
const IT_WORDS: Word[] = [
  ['Luce', 'ルーチェ'], ['Sole', 'ソーレ'], ['Aria', 'アリア'], ['Stella', 'ステラ'], ['Mare', 'マーレ'],
  ['Bosco', 'ボスコ'], ['Vento', 'ヴェント'], ['Fiore', 'フィオーレ'], ['Porto', 'ポルト'], ['Gioia', 'ジョイア'],
  ['Tavola', 'ターヴォラ'], ['Nonna', 'ノンナ'],
];

// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
const FR_WORDS: Word[] = [
  ['Lumière', 'リュミエール'], ['Soleil', 'ソレイユ'], ['Étoile', 'エトワール'], ['Jardin', 'ジャルダン'],
  ['Rivage', 'リヴァージュ'], ['Printemps', 'プランタン'], ['Cocotte', 'ココット'], ['Le Pont', 'ル・ポン'],
  ['Maison Blanche', 'メゾンブランシュ'], ['Bonheur', 'ボヌール'],
];

// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
const EN_WORDS: Word[] = [
  ['Moon', 'ムーン'], ['Harbor', 'ハーバー'], ['Lantern', 'ランタン'], ['Owl', 'アウル'], ['Velvet', 'ベルベット'],
  ['Drift', 'ドリフト'], ['Nook', 'ヌック'], ['Cask', 'カスク'], ['Tide', 'タイド'], ['Ember', 'エンバー'],
  ['Juniper', 'ジュニパー'], ['Stand', 'スタンド'],
];

export interface NamePattern {
  /** Prefix or suffix word(s) typical of the genre. */
  affixes: Word[];
  /** Whether the affix goes before the word (鮨 まつもと) or after (一心 食堂). */
  position: 'before' | 'after';
  words: Word[];
  /** Separator between affix and word in the name (kana are written without it). */
  sep: string;
}

export const NAME_PATTERNS: Record<Genre, NamePattern[]> = {
  izakaya: [
    {
      affixes: [
        ['大衆酒場', 'タイシュウサカバ'],
        ['炉端焼き', 'ロバタヤキ'],
        ['酒処', 'サケドコロ'],
        ['居酒屋', 'イザカヤ'],
        ['立呑み', 'タチノミ'],
        ['海鮮酒場', 'カイセンサカバ'],
      ],
      position: 'before',
      words: JP_WORDS,
      sep: ' ',
    },
    {
      affixes: [
        ['酒場', 'サカバ'],
        ['屋', 'ヤ'],
        ['商店', 'ショウテン'],
      ],
      position: 'after',
      words: JP_WORDS,
      sep: '',
    },
  ],
  yakitori: [
    {
      affixes: [
        ['焼き鳥', 'ヤキトリ'],
        ['炭火焼鳥', 'スミビヤキトリ'],
        ['やきとり', 'ヤキトリ'],
        ['鶏料理', 'トリリョウリ'],
      ],
      position: 'before',
      words: JP_WORDS,
      sep: ' ',
    },
  ],
  yakiniku: [
    {
      affixes: [
        ['焼肉', 'ヤキニク'],
        ['炭火焼肉', 'スミビヤキニク'],
        ['和牛焼肉', 'ワギュウヤキニク'],
        ['ホルモン', 'ホルモン'],
      ],
      position: 'before',
      words: JP_WORDS,
      sep: ' ',
    },
  ],
  sushi: [
    {
      affixes: [
        ['鮨', 'スシ'],
        ['寿司', 'スシ'],
        ['立ち喰い鮨', 'タチグイスシ'],
        ['すし処', 'スシドコロ'],
      ],
      position: 'before',
      words: JP_WORDS,
      sep: ' ',
    },
  ],
  ramen: [
    {
      affixes: [
        ['麺屋', 'メンヤ'],
        ['らーめん', 'ラーメン'],
        ['中華そば', 'チュウカソバ'],
        ['つけ麺', 'ツケメン'],
        ['ラーメン', 'ラーメン'],
      ],
      position: 'before',
      words: JP_WORDS,
      sep: ' ',
    },
  ],
  washoku: [
    {
      affixes: [
        ['割烹', 'カッポウ'],
        ['日本料理', 'ニホンリョウリ'],
        ['小料理', 'コリョウリ'],
        ['和食', 'ワショク'],
        ['おばんざい', 'オバンザイ'],
      ],
      position: 'before',
      words: JP_WORDS,
      sep: ' ',
    },
    {
      affixes: [
        ['食堂', 'ショクドウ'],
        ['庵', 'アン'],
      ],
      position: 'after',
      words: JP_WORDS,
      sep: '',
    },
  ],
  italian: [
    {
      affixes: [
        ['Trattoria', 'トラットリア'],
        ['Osteria', 'オステリア'],
        ['Pizzeria', 'ピッツェリア'],
        ['Ristorante', 'リストランテ'],
      ],
      position: 'before',
      words: IT_WORDS,
      sep: ' ',
    },
    {
      affixes: [
        ['トラットリア', 'トラットリア'],
        ['イタリア食堂', 'イタリアショクドウ'],
      ],
      position: 'before',
      words: IT_WORDS.map(([, k]) => [k, k] as Word),
      sep: ' ',
    },
  ],
  french: [
    {
      affixes: [
        ['Bistro', 'ビストロ'],
        ['Brasserie', 'ブラッスリー'],
        ['Restaurant', 'レストラン'],
      ],
      position: 'before',
      words: FR_WORDS,
      sep: ' ',
    },
    { affixes: [['ビストロ', 'ビストロ']], position: 'before', words: FR_WORDS.map(([, k]) => [k, k] as Word), sep: ' ' },
  ],
  chinese: [
    {
      affixes: [
        ['中国料理', 'チュウゴクリョウリ'],
        ['四川料理', 'シセンリョウリ'],
        ['餃子酒場', 'ギョウザサカバ'],
        ['飲茶', 'ヤムチャ'],
      ],
      position: 'before',
      words: CN_WORDS,
      sep: ' ',
    },
    {
      affixes: [
        ['飯店', 'ハンテン'],
        ['楼', 'ロウ'],
        ['菜館', 'サイカン'],
      ],
      position: 'after',
      words: CN_WORDS,
      sep: '',
    },
  ],
  korean: [
    {
      affixes: [
        ['韓国料理', 'カンコクリョウリ'],
        ['韓国酒場', 'カンコクサカバ'],
        ['サムギョプサル', 'サムギョプサル'],
        ['韓国屋台', 'カンコクヤタイ'],
      ],
      position: 'before',
      words: KR_WORDS,
      sep: ' ',
    },
    {
      affixes: [
        ['食堂', 'ショクドウ'],
        ['ポチャ', 'ポチャ'],
      ],
      position: 'after',
      words: KR_WORDS,
      sep: '',
    },
  ],
  cafe_bar: [
    {
      affixes: [
        ['Bar', 'バー'],
        ['Cafe & Bar', 'カフェアンドバー'],
        ['Wine Bar', 'ワインバー'],
        ['Craft Beer', 'クラフトビア'],
      ],
      position: 'before',
      words: EN_WORDS,
      sep: ' ',
    },
    {
      affixes: [
        ['カフェ', 'カフェ'],
        ['バル', 'バル'],
      ],
      position: 'before',
      words: EN_WORDS.map(([, k]) => [k, k] as Word),
      sep: ' ',
    },
  ],
  steak: [
    {
      affixes: [
        ['ステーキハウス', 'ステーキハウス'],
        ['鉄板焼', 'テッパンヤキ'],
        ['熟成肉', 'ジュクセイニク'],
      ],
      position: 'before',
      words: JP_WORDS,
      sep: ' ',
    },
    {
      affixes: [
        ['Steak', 'ステーキ'],
        ['Grill', 'グリル'],
      ],
      position: 'before',
      words: EN_WORDS,
      sep: ' ',
    },
  ],
};

/** Budget ranges (JPY, per person) per genre: [min options], [max options]. */
export const BUDGETS: Record<Genre, { min: number[]; max: number[] }> = {
  izakaya: { min: [2000, 2500, 3000], max: [3999, 4999, 5999] },
  yakitori: { min: [3000, 3500, 4000], max: [4999, 5999, 6999] },
  yakiniku: { min: [4000, 5000, 6000], max: [6999, 7999, 9999] },
  sushi: { min: [5000, 8000, 12000], max: [9999, 14999, 19999] },
  ramen: { min: [900, 1000, 1200], max: [1499, 1999] },
  washoku: { min: [5000, 6000, 8000], max: [7999, 9999, 14999] },
  italian: { min: [3000, 4000, 5000], max: [5999, 6999, 7999] },
  french: { min: [6000, 8000, 10000], max: [9999, 14999, 19999] },
  chinese: { min: [2000, 3000, 4000], max: [3999, 4999, 5999] },
  korean: { min: [2500, 3000, 3500], max: [3999, 4999] },
  cafe_bar: { min: [1500, 2000, 3000], max: [3999, 4999] },
  steak: { min: [4000, 6000, 8000], max: [7999, 9999, 14999] },
};

/** Typical stay (minutes) per genre. */
export const STAY_MINUTES: Record<Genre, number[]> = {
  izakaya: [120, 120, 150],
  yakitori: [120],
  yakiniku: [90, 120],
  sushi: [90, 120],
  ramen: [45, 60],
  washoku: [120, 150],
  italian: [120],
  french: [150, 180],
  chinese: [90, 120],
  korean: [120],
  cafe_bar: [90, 120],
  steak: [90, 120],
};

/** Table kinds a genre offers, with weights. */
export const TABLE_KIND_WEIGHTS: Record<Genre, Array<[TableKind, number]>> = {
  izakaya: [
    ['table', 5],
    ['tatami', 3],
    ['private_room', 2],
    ['counter', 2],
  ],
  yakitori: [
    ['counter', 5],
    ['table', 4],
    ['private_room', 1],
  ],
  yakiniku: [
    ['table', 6],
    ['private_room', 2],
    ['tatami', 1],
  ],
  sushi: [
    ['counter', 6],
    ['table', 2],
    ['private_room', 1],
  ],
  ramen: [
    ['counter', 6],
    ['table', 3],
  ],
  washoku: [
    ['counter', 3],
    ['private_room', 3],
    ['tatami', 2],
    ['table', 2],
  ],
  italian: [
    ['table', 7],
    ['counter', 2],
    ['private_room', 1],
  ],
  french: [
    ['table', 7],
    ['private_room', 2],
  ],
  chinese: [
    ['table', 7],
    ['private_room', 2],
    ['counter', 1],
  ],
  korean: [
    ['table', 6],
    ['tatami', 2],
    ['private_room', 1],
  ],
  cafe_bar: [
    ['counter', 5],
    ['table', 5],
  ],
  steak: [
    ['counter', 4],
    ['table', 5],
    ['private_room', 1],
  ],
};

export const FEATURES: Record<Genre, string[]> = {
  izakaya: [
    '毎朝市場から仕入れる鮮魚のお造りと、店主自慢の炉端焼きが自慢です',
    '全国各地の日本酒を常時30種類以上ご用意しています',
    '気軽な一杯から大人数の宴会まで、幅広くご利用いただけます',
    '名物のもつ煮込みと、季節の一品料理をお楽しみください',
  ],
  yakitori: [
    '紀州備長炭で一本一本丁寧に焼き上げる焼き鳥が自慢です',
    '朝引きの銘柄鶏を使った串焼きと、鶏白湯の締めの雑炊が人気です',
    'カウンター越しに焼き場の臨場感を楽しめる一軒です',
  ],
  yakiniku: [
    'A5ランクの黒毛和牛を一頭買いし、希少部位までお手頃価格でご提供します',
    '秘伝のタレで味わう厚切り上タンとハラミが看板メニューです',
    '無煙ロースターを完備し、服ににおいがつきにくい店内です',
  ],
  sushi: [
    '豊洲から仕入れる旬の魚を、赤酢のシャリで握ります',
    'おまかせコースでは季節のつまみと握りを一貫ずつお出しします',
    'カウンターで職人との会話を楽しみながら江戸前鮨をどうぞ',
  ],
  ramen: [
    '豚骨と魚介を合わせた濃厚なスープに、自家製の太麺がよく絡みます',
    '丸鶏を8時間炊いた澄んだ醤油スープが自慢の一杯です',
    '深夜まで営業しており、飲んだ後の締めの一杯にも最適です',
  ],
  washoku: [
    '季節の食材を活かした会席料理を、落ち着いた個室でお楽しみいただけます',
    '京都で修業した店主が、出汁にこだわったおばんざいをご用意します',
    '接待や顔合わせにも使える、静かで上質な空間です',
  ],
  italian: [
    '薪窯で焼き上げるナポリピッツァと、自家製生パスタが人気です',
    'イタリア各地のワインを100種類以上取り揃えています',
    'カジュアルな雰囲気で、仲間との食事にもデートにも使いやすいお店です',
  ],
  french: [
    '旬の国産食材を使った、気取らないビストロ料理をお楽しみください',
    'シェフおまかせのコースとソムリエが選ぶワインのペアリングが好評です',
    '記念日やデートに人気の、落ち着いた雰囲気のレストランです',
  ],
  chinese: [
    '本場の料理人が作る、痺れと辛さの効いた四川料理が名物です',
    '皮から手作りの焼き餃子と小籠包が看板メニューです',
    '円卓の個室があり、宴会や家族の集まりにもご利用いただけます',
  ],
  korean: [
    '厚切りのサムギョプサルと、自家製キムチの盛り合わせが人気です',
    'チーズタッカルビやチゲなど、本場の味を気軽に楽しめます',
    'マッコリの種類が豊富で、二次会にもおすすめです',
  ],
  cafe_bar: [
    'バーテンダーが旬のフルーツで作るカクテルが自慢です',
    '国内外のクラフトビールを樽生で常時10種類ご用意しています',
    '遅い時間まで営業しているので、二次会や一人飲みにも便利です',
  ],
  steak: [
    '熟成庫でじっくり寝かせた赤身肉を、豪快に炭火で焼き上げます',
    '目の前の鉄板で焼き上げる黒毛和牛のステーキをご堪能ください',
    'ランチのハンバーグとステーキも人気の一軒です',
  ],
};

export const CLOSINGS = [
  '当日のご予約も歓迎です。お気軽にお立ち寄りください。',
  'すぐに入れるお席をご用意してお待ちしております。',
  '少人数から団体様まで、お気軽にご予約ください。',
  '仕事帰りの一杯にもぜひご利用ください。',
];

/**
 * The demo stores' cancellation policies: the store's wording and the numbers that apply (free until
 * `freeHours` before the start, then `feeYen` per person). db/migrations/0009 gave stores seeded
 * before the numbers existed the same values by their wording.
 */
export const CANCELLATION_POLICIES = [
  {
    text: 'ご予約時間の2時間前までのキャンセルは無料です。それ以降のキャンセルおよび無断キャンセルの場合は、お一人様につき2,000円を申し受けます。',
    freeHours: 2,
    feeYen: 2000,
  },
  {
    text: 'ご予約時間の24時間前までのキャンセルは無料です。それ以降のキャンセルおよび無断キャンセルは、お一人様につき3,000円を申し受けます。',
    freeHours: 24,
    feeYen: 3000,
  },
  { text: 'キャンセル料はかかりません。ご都合が変わった場合は、お早めにご連絡ください。', freeHours: 0, feeYen: 0 },
  { text: 'ご予約時間の1時間前までは無料でキャンセルできます。以降はお席のみのご予約でもお一人様1,000円を申し受けます。', freeHours: 1, feeYen: 1000 },
];

export const TAG_POOL: Record<Genre, string[]> = {
  izakaya: ['飲み放題あり', '宴会可', '日本酒が豊富', '喫煙ブースあり'],
  yakitori: ['日本酒が豊富', 'カウンター席', '一人でも入りやすい'],
  yakiniku: ['黒毛和牛', '無煙ロースター', '食べ放題あり'],
  sushi: ['おまかせコース', 'カウンター席', '接待向け'],
  ramen: ['一人でも入りやすい', '替え玉無料', '締めの一杯'],
  washoku: ['接待向け', '日本酒が豊富', '落ち着いた空間'],
  italian: ['ワインが豊富', 'デート向け', 'テラス席'],
  french: ['デート向け', '記念日', 'ワインが豊富'],
  chinese: ['宴会可', '円卓あり', '飲み放題あり'],
  korean: ['マッコリが豊富', '二次会向け', '飲み放題あり'],
  cafe_bar: ['二次会向け', 'カクテルが豊富', '一人でも入りやすい'],
  steak: ['熟成肉', 'ワインが豊富', 'デート向け'],
};

export const COMMON_TAGS = ['禁煙', 'クレジットカード可', '電子マネー可', '貸切可', '子連れ歓迎', 'Wi-Fiあり'];

/** Guest names for demo bookings: [name, kana]. */
// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
export const GUEST_FAMILY: Word[] = [
  ['佐藤', 'サトウ'], ['鈴木', 'スズキ'], ['高橋', 'タカハシ'], ['田中', 'タナカ'], ['伊藤', 'イトウ'],
  ['渡辺', 'ワタナベ'], ['山本', 'ヤマモト'], ['中村', 'ナカムラ'], ['小林', 'コバヤシ'], ['加藤', 'カトウ'],
  ['吉田', 'ヨシダ'], ['山口', 'ヤマグチ'], ['松本', 'マツモト'], ['井上', 'イノウエ'], ['木村', 'キムラ'],
];
// biome-ignore format: a table packed as it is read; one entry a line would make it several times longer.
export const GUEST_GIVEN: Word[] = [
  ['太郎', 'タロウ'], ['翔太', 'ショウタ'], ['大輝', 'ダイキ'], ['健', 'ケン'], ['拓海', 'タクミ'],
  ['美咲', 'ミサキ'], ['陽菜', 'ヒナ'], ['結衣', 'ユイ'], ['さくら', 'サクラ'], ['葵', 'アオイ'],
];

export const DEMO_USER = {
  email: 'demo@sugu.jp',
  password: 'sugu-demo-2026',
  name: '山田 花子',
  nameKana: 'ヤマダ ハナコ',
  phone: '090-1234-5678',
} as const;

/**
 * The demo store's staff: signs in through the same call as diners and manages one demo store (the
 * first one open 24 hours, so the store API has bookings to show at any hour).
 */
export const DEMO_STAFF = {
  email: 'store@sugu.jp',
  password: 'sugu-store-2026',
  name: '鈴木 一郎',
  nameKana: 'スズキ イチロウ',
  tenant: { slug: 'sugu-demo', name: 'すぐ予約デモ株式会社' },
} as const;

/** The platform's own demo admin: signs in at the store host's /admin-signin and opens stores. */
export const DEMO_ADMIN = {
  email: 'admin@sugu.jp',
  password: 'sugu-admin-2026',
  name: '運営 花子',
  nameKana: 'ウンエイ ハナコ',
} as const;

/** Photo files committed under public/photos: `${genre}-${n}.svg`, n = 1..PHOTOS_PER_GENRE. */
export const PHOTOS_PER_GENRE = 3;
export const PHOTO_WIDTH = 640;
export const PHOTO_HEIGHT = 400;
