/** Who a watch belongs to: an account, or a guest's device (the token its watches carry). */
export type Owner = { kind: 'user'; userId: number; email: string } | { kind: 'device'; token: string };
