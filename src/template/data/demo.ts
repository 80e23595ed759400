/** Demo content of the template apps. Texts are translation keys; numbers are fixed so pages are stable. */

export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export const DASHBOARD_CARDS = [
  { key: 'weeklySales', value: 24780.5, money: true, change: 12.4, series: [12, 18, 14, 22, 19, 26, 31] },
  { key: 'recentOrders', value: 348, change: 8.1, series: [30, 42, 38, 51, 47, 60, 58] },
  { key: 'trafficSources', value: 18240, change: -3.2, series: [80, 72, 75, 70, 66, 69, 64] },
  { key: 'orders', value: 1294, change: 5.6, series: [150, 170, 160, 182, 190, 210, 232] },
  { key: 'customers', value: 892, change: 14.9, series: [20, 24, 31, 29, 36, 42, 48] },
  { key: 'supportTickets', value: 37, change: -18.5, series: [9, 8, 7, 7, 5, 6, 4] },
] as const;

export const TRAFFIC = [
  { key: 'search', value: 46 },
  { key: 'direct', value: 24 },
  { key: 'social', value: 18 },
  { key: 'referral', value: 12 },
] as const;

export const RECENT_ORDERS = [
  { id: 'ORD-1042', customer: 'Olivia Martin', total: 1999, status: 'shipped', date: '2026-11-19T15:20:00Z' },
  { id: 'ORD-1041', customer: 'Jackson Lee', total: 39, status: 'processing', date: '2026-11-19T11:05:00Z' },
  { id: 'ORD-1040', customer: 'Isabella Nguyen', total: 299, status: 'delivered', date: '2026-11-18T22:40:00Z' },
  { id: 'ORD-1039', customer: 'William Kim', total: 99, status: 'cancelled', date: '2026-11-18T09:12:00Z' },
  { id: 'ORD-1038', customer: 'Sofia Davis', total: 450.75, status: 'delivered', date: '2026-11-17T17:45:00Z' },
] as const;

export const ORDER_STATUS_BADGE: Record<string, string> = {
  shipped: 'badge-info',
  processing: 'badge-warning',
  delivered: 'badge-success',
  cancelled: 'badge-error',
};

export const EMAIL_FOLDERS = ['inbox', 'sent', 'drafts', 'starred', 'trash'] as const;
export const EMAIL_LABELS = [
  { key: 'work', badge: 'badge-primary' },
  { key: 'invoice', badge: 'badge-warning' },
] as const;
export type EmailFolder = (typeof EMAIL_FOLDERS)[number];

export const EMAILS = [
  {
    id: 1,
    folder: 'inbox',
    from: 'Olivia Martin',
    subject: 'template.email.m1.subject',
    excerpt: 'template.email.m1.excerpt',
    date: '2026-11-20T14:10:00Z',
    labels: ['work'],
    unread: true,
    starred: true,
  },
  {
    id: 2,
    folder: 'inbox',
    from: 'Billing',
    subject: 'template.email.m2.subject',
    excerpt: 'template.email.m2.excerpt',
    date: '2026-11-19T09:00:00Z',
    labels: ['invoice'],
    unread: true,
    starred: false,
  },
  {
    id: 3,
    folder: 'inbox',
    from: 'Jackson Lee',
    subject: 'template.email.m3.subject',
    excerpt: 'template.email.m3.excerpt',
    date: '2026-11-18T18:30:00Z',
    labels: ['work', 'invoice'],
    unread: false,
    starred: false,
  },
  {
    id: 4,
    folder: 'inbox',
    from: 'Sofia Davis',
    subject: 'template.email.m4.subject',
    excerpt: 'template.email.m4.excerpt',
    date: '2026-11-17T07:45:00Z',
    labels: [],
    unread: false,
    starred: true,
  },
  {
    id: 5,
    folder: 'sent',
    from: 'John Doe',
    subject: 'template.email.m5.subject',
    excerpt: 'template.email.m5.excerpt',
    date: '2026-11-16T12:00:00Z',
    labels: ['work'],
    unread: false,
    starred: false,
  },
  {
    id: 6,
    folder: 'drafts',
    from: 'John Doe',
    subject: 'template.email.m6.subject',
    excerpt: 'template.email.m6.excerpt',
    date: '2026-11-15T10:00:00Z',
    labels: [],
    unread: false,
    starred: false,
  },
] as const;

export const CHAT_CHANNELS = ['general', 'random', 'design'] as const;
export const CHAT_MESSAGES = [
  { user: 'Olivia Martin', text: 'template.chat.msg1', at: '2026-11-20T13:02:00Z' },
  { user: 'Jackson Lee', text: 'template.chat.msg2', at: '2026-11-20T13:05:00Z' },
  { user: 'Sofia Davis', text: 'template.chat.msg3', at: '2026-11-20T13:11:00Z' },
] as const;

export const TODOS = [
  { id: 1, title: 'template.todo.t1', labels: ['work'], done: false },
  { id: 2, title: 'template.todo.t2', labels: ['invoice'], done: false },
  { id: 3, title: 'template.todo.t3', labels: ['work', 'invoice'], done: false },
  { id: 4, title: 'template.todo.t4', labels: [], done: true },
  { id: 5, title: 'template.todo.t5', labels: ['work'], done: true },
] as const;

export const KANBAN_STATES = ['TODO', 'INPROGRESS', 'TESTING', 'DONE'] as const;
export type KanbanState = (typeof KANBAN_STATES)[number];
export const KANBAN_CARDS = [
  { id: 1, title: 'template.board.c1.title', description: 'template.board.c1.description', state: 'TODO' },
  { id: 2, title: 'template.board.c2.title', description: 'template.board.c2.description', state: 'TODO' },
  { id: 3, title: 'template.board.c3.title', description: 'template.board.c3.description', state: 'INPROGRESS' },
  { id: 4, title: 'template.board.c4.title', description: 'template.board.c4.description', state: 'TESTING' },
  { id: 5, title: 'template.board.c5.title', description: 'template.board.c5.description', state: 'DONE' },
] as const;

export const BRANDS = ['Acme', 'Globex', 'Initech', 'Umbrella'] as const;
export const PRODUCTS = [
  { id: 1, name: 'Wireless Headphones', brand: 'Acme', price: 129.99, freeShipping: true, inStock: true, rating: 4 },
  { id: 2, name: 'Smart Watch', brand: 'Globex', price: 249, freeShipping: true, inStock: false, rating: 5 },
  { id: 3, name: 'Bluetooth Speaker', brand: 'Initech', price: 59.5, freeShipping: false, inStock: true, rating: 4 },
  { id: 4, name: 'Mechanical Keyboard', brand: 'Acme', price: 89, freeShipping: false, inStock: true, rating: 5 },
  { id: 5, name: '4K Monitor', brand: 'Umbrella', price: 399.99, freeShipping: true, inStock: true, rating: 4 },
  { id: 6, name: 'USB-C Hub', brand: 'Globex', price: 34.9, freeShipping: false, inStock: true, rating: 3 },
  { id: 7, name: 'Gaming Mouse', brand: 'Initech', price: 45, freeShipping: true, inStock: false, rating: 4 },
  { id: 8, name: 'Portable SSD 1TB', brand: 'Umbrella', price: 119, freeShipping: true, inStock: true, rating: 5 },
] as const;

export const CART = [
  { productId: 1, quantity: 1 },
  { productId: 4, quantity: 2 },
  { productId: 6, quantity: 1 },
] as const;
export const CART_DISCOUNT_RATE = 0.1;

export const USERS = [
  { id: 1, name: 'Olivia Martin', email: 'olivia@example.com', role: 'admin', status: 'active', joined: '2025-01-12T10:00:00Z' },
  { id: 2, name: 'Jackson Lee', email: 'jackson@example.com', role: 'editor', status: 'active', joined: '2025-03-08T10:00:00Z' },
  { id: 3, name: 'Isabella Nguyen', email: 'isabella@example.com', role: 'viewer', status: 'invited', joined: '2025-05-21T10:00:00Z' },
  { id: 4, name: 'William Kim', email: 'will@example.com', role: 'editor', status: 'suspended', joined: '2025-06-02T10:00:00Z' },
  { id: 5, name: 'Sofia Davis', email: 'sofia@example.com', role: 'viewer', status: 'active', joined: '2025-07-15T10:00:00Z' },
  { id: 6, name: 'Liam Johnson', email: 'liam@example.com', role: 'admin', status: 'active', joined: '2025-08-30T10:00:00Z' },
  { id: 7, name: 'Emma Brown', email: 'emma@example.com', role: 'viewer', status: 'active', joined: '2025-09-09T10:00:00Z' },
  { id: 8, name: 'Noah Wilson', email: 'noah@example.com', role: 'editor', status: 'invited', joined: '2025-10-01T10:00:00Z' },
  { id: 9, name: 'Ava Garcia', email: 'ava@example.com', role: 'viewer', status: 'active', joined: '2025-10-18T10:00:00Z' },
  { id: 10, name: 'Lucas Tanaka', email: 'lucas@example.com', role: 'viewer', status: 'active', joined: '2025-11-04T10:00:00Z' },
  { id: 11, name: 'Mia Rossi', email: 'mia@example.com', role: 'editor', status: 'active', joined: '2026-01-22T10:00:00Z' },
  { id: 12, name: 'Ethan Müller', email: 'ethan@example.com', role: 'viewer', status: 'suspended', joined: '2026-02-14T10:00:00Z' },
] as const;
