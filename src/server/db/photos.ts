/**
 * Deterministic placeholder store photos: a gradient and a simple genre motif, no text.
 * The files are committed under public/photos (`${genre}-${n}.svg`, 640×400, < 3 KB);
 * regenerate with `tsx src/server/db/photos.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PHOTO_HEIGHT, PHOTO_WIDTH, PHOTOS_PER_GENRE } from './seed-data';
import { GENRES, type Genre } from '../../lib/contract/enums';

const PALETTES: Array<[string, string]> = [
  ['#0b3d5c', '#0096c7'],
  ['#3b1f2b', '#b5485d'],
  ['#2d3a1f', '#7a9a3a'],
  ['#40250f', '#c7782a'],
  ['#1d1b3a', '#5a55b0'],
  ['#0f3b35', '#2aa58e'],
];

const W = PHOTO_WIDTH;
const H = PHOTO_HEIGHT;
const CX = W / 2;
const CY = H / 2 + 10;

const MOTIFS: Record<Genre, string> = {
  izakaya: `<rect x="${CX - 4}" y="40" width="8" height="40" fill="#222"/><ellipse cx="${CX}" cy="${CY}" rx="80" ry="110" fill="#d62828"/><g stroke="#7a1010" stroke-width="4" fill="none"><path d="M${CX - 78} ${CY - 40}h156M${CX - 80} ${CY}h160M${CX - 78} ${CY + 40}h156"/></g><rect x="${CX - 45}" y="${CY - 118}" width="90" height="16" rx="4" fill="#222"/><rect x="${CX - 45}" y="${CY + 102}" width="90" height="16" rx="4" fill="#222"/>`,
  yakitori: `<g transform="rotate(-20 ${CX} ${CY})"><rect x="${CX - 190}" y="${CY - 3}" width="380" height="6" fill="#e9d8a6"/><g fill="#9c4a1a"><circle cx="${CX - 90}" cy="${CY}" r="36"/><circle cx="${CX - 20}" cy="${CY}" r="38"/><circle cx="${CX + 50}" cy="${CY}" r="36"/></g><rect x="${CX + 95}" y="${CY - 20}" width="40" height="40" rx="6" fill="#6a994e"/></g>`,
  yakiniku: `<circle cx="${CX}" cy="${CY}" r="130" fill="#333"/><g stroke="#888" stroke-width="6"><path d="M${CX - 120} ${CY - 40}h240M${CX - 128} ${CY}h256M${CX - 120} ${CY + 40}h240"/></g><g fill="#b23a48"><ellipse cx="${CX - 50}" cy="${CY - 20}" rx="45" ry="22"/><ellipse cx="${CX + 45}" cy="${CY + 25}" rx="48" ry="22"/></g>`,
  sushi: `<rect x="${CX - 200}" y="${CY + 40}" width="400" height="30" rx="8" fill="#6b4226"/>${[-110, 0, 110]
    .map(
      (dx, i) =>
        `<rect x="${CX + dx - 48}" y="${CY - 20}" width="96" height="56" rx="24" fill="#fafafa"/><rect x="${CX + dx - 52}" y="${CY - 40}" width="104" height="34" rx="16" fill="${['#f4845f', '#e63946', '#ffd166'][i]}"/>`,
    )
    .join('')}`,
  ramen: `<path d="M${CX - 160} ${CY - 20}h320a160 150 0 0 1-320 0z" fill="#f1faee"/><path d="M${CX - 150} ${CY - 20}h300" stroke="#e9c46a" stroke-width="14"/><g stroke="#fff" stroke-width="6" fill="none" opacity=".8"><path d="M${CX - 60} ${CY - 60}q10-30 0-60M${CX} ${CY - 60}q10-30 0-60M${CX + 60} ${CY - 60}q10-30 0-60"/></g><circle cx="${CX + 70}" cy="${CY - 30}" r="22" fill="#fff"/><circle cx="${CX + 70}" cy="${CY - 30}" r="10" fill="#f4a261"/>`,
  washoku: `<ellipse cx="${CX}" cy="${CY + 30}" rx="200" ry="60" fill="#2b2d42"/><path d="M${CX - 90} ${CY}h180a90 80 0 0 1-180 0z" fill="#8d0801"/><ellipse cx="${CX}" cy="${CY}" rx="90" ry="18" fill="#f4f1de"/><g stroke="#d4a373" stroke-width="8" stroke-linecap="round"><path d="M${CX + 120} ${CY - 90}l60 120M${CX + 140} ${CY - 95}l60 120"/></g>`,
  italian: `<circle cx="${CX}" cy="${CY}" r="140" fill="#e9c46a"/><circle cx="${CX}" cy="${CY}" r="120" fill="#e76f51"/><g fill="#fff"><circle cx="${CX - 50}" cy="${CY - 40}" r="20"/><circle cx="${CX + 40}" cy="${CY + 50}" r="22"/><circle cx="${CX + 55}" cy="${CY - 35}" r="18"/></g><g fill="#2a9d8f"><circle cx="${CX - 30}" cy="${CY + 40}" r="10"/><circle cx="${CX + 10}" cy="${CY - 70}" r="10"/></g><g stroke="#e9c46a" stroke-width="4"><path d="M${CX - 120} ${CY}h240M${CX} ${CY - 120}v240"/></g>`,
  french: `<path d="M${CX - 60} ${CY - 120}h120q0 110-60 120q-60-10-60-120z" fill="#fff" opacity=".85"/><path d="M${CX - 55} ${CY - 60}h110q-10 55-55 60q-45-5-55-60z" fill="#7b1e3a"/><rect x="${CX - 4}" y="${CY}" width="8" height="100" fill="#fff"/><rect x="${CX - 50}" y="${CY + 96}" width="100" height="10" rx="5" fill="#fff"/>`,
  chinese: `<ellipse cx="${CX}" cy="${CY + 60}" rx="170" ry="40" fill="#6b4226"/><rect x="${CX - 170}" y="${CY - 40}" width="340" height="100" fill="#a47148"/><ellipse cx="${CX}" cy="${CY - 40}" rx="170" ry="40" fill="#c89f65"/><g fill="#fefae0"><ellipse cx="${CX - 70}" cy="${CY - 45}" rx="42" ry="24"/><ellipse cx="${CX + 20}" cy="${CY - 40}" rx="42" ry="24"/><ellipse cx="${CX + 100}" cy="${CY - 48}" rx="38" ry="22"/></g>`,
  korean: `<rect x="${CX - 140}" y="${CY - 30}" width="280" height="110" rx="20" fill="#2b2d42"/><ellipse cx="${CX}" cy="${CY - 30}" rx="140" ry="30" fill="#d62828"/><g stroke="#fff" stroke-width="6" fill="none" opacity=".7"><path d="M${CX - 60} ${CY - 70}q15-30 0-60M${CX} ${CY - 70}q15-30 0-60M${CX + 60} ${CY - 70}q15-30 0-60"/></g><rect x="${CX - 190}" y="${CY - 10}" width="50" height="16" rx="8" fill="#2b2d42"/><rect x="${CX + 140}" y="${CY - 10}" width="50" height="16" rx="8" fill="#2b2d42"/>`,
  cafe_bar: `<path d="M${CX - 110} ${CY - 110}h220l-110 120z" fill="#fff" opacity=".85"/><path d="M${CX - 80} ${CY - 80}h160l-80 88z" fill="#ff8fab"/><rect x="${CX - 4}" y="${CY + 8}" width="8" height="90" fill="#fff"/><rect x="${CX - 55}" y="${CY + 95}" width="110" height="10" rx="5" fill="#fff"/><circle cx="${CX + 60}" cy="${CY - 105}" r="22" fill="#70e000"/>`,
  steak: `<ellipse cx="${CX}" cy="${CY + 20}" rx="210" ry="90" fill="#1b1b1b"/><path d="M${CX - 130} ${CY}q20-80 130-70q130 0 120 70q-10 70-130 60q-130 0-120-60z" fill="#8c2f39"/><circle cx="${CX + 50}" cy="${CY + 5}" r="22" fill="#f1e3d3"/><g stroke="#5a1a22" stroke-width="8"><path d="M${CX - 90} ${CY - 20}l40 40M${CX - 40} ${CY - 30}l40 40"/></g>`,
};

/** SVG source of photo `n` (1-based) of a genre. */
export function renderPhotoSvg(genre: Genre, n: number): string {
  const gi = GENRES.indexOf(genre);
  const [a, b] = PALETTES[(gi * 2 + n) % PALETTES.length]!;
  const angle = [0, 35, 70][(n - 1) % 3];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img">` +
    `<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>` +
    `<rect width="${W}" height="${H}" fill="url(#g)"/>` +
    `<circle cx="${n === 2 ? 80 : 560}" cy="${n === 3 ? 340 : 60}" r="120" fill="#fff" opacity=".06"/>` +
    (n === 3 ? `<g transform="translate(${CX} ${CY}) scale(.9) translate(${-CX} ${-CY})">${MOTIFS[genre]}</g>` : MOTIFS[genre]) +
    `</svg>\n`
  );
}

export function writePhotos(dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const g of GENRES) {
    for (let n = 1; n <= PHOTOS_PER_GENRE; n++) {
      const f = path.join(dir, `${g}-${n}.svg`);
      fs.writeFileSync(f, renderPhotoSvg(g, n));
      files.push(f);
    }
  }
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? 'public/photos');
  const files = writePhotos(dir);
  console.log(`wrote ${files.length} photos to ${dir}`);
}
