/** A FIFO with O(1) shift, compacted now and then. */
export class Queue<T> {
  private items: T[] = [];
  private head = 0;
  get length() {
    return this.items.length - this.head;
  }
  push(item: T) {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
  /** Puts items just shifted back at the head, in their order. */
  putBack(items: T[]) {
    if (items.length <= this.head) {
      for (let i = items.length - 1; i >= 0; i--) this.items[--this.head] = items[i]!;
    } else {
      this.items = [...items, ...this.items.slice(this.head)];
      this.head = 0;
    }
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as T;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
