/** The dashboard's to-do list as its loader sends it to the page (app/dashboard/todo.server.ts). */
export interface TodoList {
  attention: { total: number; orders: { id: string; reference: string; itemName: string; reason: string | null }[] };
  toPost: { total: number; orders: { id: string; reference: string; itemName: string; customer: string }[] };
  messages: { total: number; messages: { id: number; name: string; subject: string }[] };
  members: {
    total: number;
    members: { id: number; name: string; paidUntil: string; status: string; cardFailed: boolean }[];
  };
  events: { id: string; title: string; startsAt: string; sold: number; capacity: number | null }[];
}
