/**
 * Options kept as strings (src/server/render/options.ts): the chosen value and the list's name are
 * the key, so another choice, language or area name gives new markup, never an old one.
 */
import { describe, expect, it } from 'vitest';
import { optionsHtml } from '../../src/server/render/options';

describe('optionsHtml', () => {
  const areas = (name: string) => () => [
    { value: '', label: 'すべて' },
    { value: '1', label: name },
  ];

  it('marks the chosen value, escapes labels and values, and leaves the empty choice unmarked', () => {
    expect(optionsHtml('t:a', '', areas('渋谷 & "駅前"'))).toBe('<option value="">すべて</option><option value="1">渋谷 &amp; &quot;駅前&quot;</option>');
    expect(optionsHtml('t:a', '1', areas('渋谷'))).toBe('<option value="">すべて</option><option value="1" selected>渋谷</option>');
  });

  it('builds a list once per name and choice, and anew under another name', () => {
    let built = 0;
    const build = () => {
      built++;
      return areas('新宿')();
    };
    const first = optionsHtml('t:b:1=新宿', '1', build);
    expect(optionsHtml('t:b:1=新宿', '1', build)).toBe(first);
    expect(built).toBe(1);
    // A renamed area is another list name (the callers put the names in it).
    expect(optionsHtml('t:b:1=新宿三丁目', '1', () => areas('新宿三丁目')())).toContain('新宿三丁目');
    expect(optionsHtml('t:b:1=新宿', '', build)).not.toContain('selected');
    expect(built).toBe(2);
  });
});
