/**
 * The nice value of the server's background threads (the bank sync's, the statement files', the big
 * writes' of decision 0103): when one of them and the thread that serves every other user both want
 * a core, the serving thread gets it, and the background thread runs at full speed whenever a core
 * is free. Set on Unix through piscina's niceIncrement and its optional @napi-rs/nice; where that
 * package is missing the threads run at the server's own priority.
 */
export const BACKGROUND_THREAD_NICENESS = 19;
