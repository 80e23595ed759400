/**
 * Tests book as many diners from one address, often with one phone number and one mailbox: the
 * booking limits and the per-recipient mail cap are set out of reach for test servers unless a test
 * asks for them (`{ GUEST_BOOKINGS_PER_ADDRESS: '' }` means the default);
 * tests/api/booking-limits.test.ts and tests/api/mail-abuse.test.ts check the real ones.
 */
export const NO_BOOKING_LIMITS = { GUEST_BOOKINGS_PER_ADDRESS: '1000000', BOOKINGS_PER_CONTACT: '1000000', MAIL_PER_RECIPIENT: '1000000' };
