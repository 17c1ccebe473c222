/** Application error of §3: a flag plus text, with a code (e.g. `Init`). */
export type AppError = { code: string; text: string };
