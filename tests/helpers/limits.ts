/**
 * Tests book as many diners from one address, often with one phone number: the booking limits are
 * set out of reach for test servers unless a test asks for them (`{ GUEST_BOOKINGS_PER_ADDRESS: '' }`
 * means the default); tests/api/booking-limits.test.ts checks the real ones.
 */
export const NO_BOOKING_LIMITS = { GUEST_BOOKINGS_PER_ADDRESS: '1000000', BOOKINGS_PER_CONTACT: '1000000' };
