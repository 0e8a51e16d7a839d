import { Injectable } from '@nestjs/common';

/** The server's notion of now; tests replace it to move time. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
