/** Bad values are 4xx on PostgreSQL (the sweep itself: bad-values-sweep.ts). */
import { badValuesAre4xx } from './bad-values-sweep';

badValuesAre4xx('postgres');
