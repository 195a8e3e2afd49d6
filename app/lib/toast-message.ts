/** A toast's words, as an action or a flash cookie hands them to the page (components/ui/toast shows them). */
export interface ToastMessage {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  /** Set on a toast that comes from the server (a save's cookie): the same one is never shown twice. */
  id?: string;
}
