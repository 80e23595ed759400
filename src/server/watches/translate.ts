import { translate } from '../http/api';
import { translatorFor } from '../../i18n';
import { isLocale } from '../../i18n/locales';

/** A translator for a saved language (a watch's, a booking's), Japanese when it is not one of ours. */
export const watchTranslator = (locale: string) => translate(translatorFor(isLocale(locale) ? locale : 'ja'));
