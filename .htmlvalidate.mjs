/**
 * html-validate for the product's pages (tests/e2e/valid-html.spec.ts): the rules the HTML standard
 * sets, and the accessibility ones.
 */
export default {
  extends: ['html-validate:standard', 'html-validate:a11y'],
  rules: {
    // `<ul role="list">` is on purpose: the lists are styled without markers, and WebKit (Safari,
    // VoiceOver) then stops announcing them as lists unless the role is stated. ARIA in HTML says
    // authors "should not" restate an implicit role; the Nu checker reports it as a warning, not an error.
    'no-redundant-role': 'off',
  },
};
