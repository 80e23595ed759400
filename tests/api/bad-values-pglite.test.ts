/** Bad values are 4xx on the embedded database (the sweep itself: bad-values-sweep.ts). */
import { badValuesAre4xx } from './bad-values-sweep';

badValuesAre4xx('pglite');
