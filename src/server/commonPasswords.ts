/**
 * Passwords refused because they are among the first guesses of any attacker (NIST SP 800-63B
 * 5.1.1.2: check against commonly used values). Only entries of 8+ characters matter, since
 * shorter ones fail the length rule first. Drawn from the widely published top-password lists
 * (SecLists "10k most common", NCSC "100k Pwned Passwords") plus Japanese favourites.
 */
const LIST = `
12345678 123456789 1234567890 12345678910 123123123 1234512345 123456123456 87654321 987654321 9876543210
11111111 111111111 1111111111 00000000 000000000 0000000000 22222222 33333333 44444444 55555555 66666666
77777777 88888888 99999999 12341234 11223344 112233445566 12121212 13131313 69696969 123qweasd 1q2w3e4r
1q2w3e4r5t 1q2w3e4r5t6y 1qaz2wsx 1qaz2wsx3edc qazwsxedc qazwsx123 zaq12wsx zaq1zaq1 zxcvbnm1 zxcvbnm123
password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword pa$$word password! passwort
qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 qwertyuiop123 qwer1234 asdfghjkl asdfghjk asdf1234 asdfasdf
abcd1234 abc12345 abc123456 abcdefgh abcdefg1 aa123456 a1234567 a12345678 a123456789 1234qwer 12qwaszx
iloveyou iloveyou1 iloveyou2 princess princess1 sunshine sunshine1 football football1 baseball basketball
superman batman123 starwars welcome1 welcome123 whatever trustno1 letmein1 letmein123 changeme changeme1
computer internet michelle jennifer jessica1 charlie1 michael1 jordan23 master12 master123 dragon12 monkey12
shadow12 mustang1 freedom1 liverpool chelsea1 arsenal1 manchester pokemon1 pokemon123 minecraft fortnite
maverick butterfly chocolate cookie123 flower123 pussycat hello123 hello1234 helloworld loveyou1 lovely123
samsung1 samsung123 google123 facebook secret123 security 1password admin123 admin1234 administrator root1234
test1234 testtest guest123 default1 access14 uploader qwe12345 q1w2e3r4 q1w2e3r4t5 !qaz2wsx 1a2b3c4d
aaaaaaaa abcabcabc asdasdasd qweqweqwe zxczxczxc 147258369 159753456 741852963 789456123 147852369
123654789 999999999 888888888 777777777 666666666 555555555 123321123 12344321 1234554321 18atcskd2w
3rjs1la7qe 7777777a 1234abcd 12345qwert 123456789a 123456abc 12345abc 1234567a 1234567q 12345678a
a1b2c3d4 passpass password2 iloveu123 daniel12 thomas12 summer12 summer2024 summer2025 summer2026
winter2024 winter2025 spring2025 autumn2025 january1 december 123456789q qwertyu1 mypassword
sugu1234 sugu-demo-2026 suguyoyaku yoyaku123 tokyo123 tokyo2020 tokyo2026 nihon123 nippon123 japan123
doraemon pikachu1 sakura123 sakura1234 arashi55 kitty123 hellokitty totoro123 naruto123 onepiece
gundam123 yamamoto tanaka123 suzuki123 sato1234 asdfghjkl; qwertyuiop@ zxcvbnm, 1qazxsw2 2wsx3edc
`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter((p) => p.length >= 8));

/**
 * True for a password nobody should use: a listed one (case-insensitive), one character repeated,
 * or a plain run of digits.
 * @example isCommonPassword('Password123') // true
 */
export function isCommonPassword(password: string): boolean {
  const p = password.normalize('NFC').toLowerCase();
  if (COMMON_PASSWORDS.has(p)) return true;
  if (/^(.)\1*$/u.test(p)) return true;
  return /^(?:0123456789|1234567890|9876543210)+$/.test(p.slice(0, 10)) && /^\d+$/.test(p);
}
