import type { FastifyReply } from 'fastify';
import { STALLED_ANSWER_MS } from '../../../http/json-answer.js';
import { CSV_TYPE, csvStream } from './csv.js';
import { attachment } from './disposition.js';
import { PDF_TYPE, pdfStream } from './pdf.js';
import type { ExportTable } from './table.js';
import { XLSX_TYPE, xlsxStream } from './xlsx.js';

export type ExportFormat = 'csv' | 'xlsx' | 'pdf';

/** The media types of the export formats, as the operations declare them. */
export const EXPORT_TYPES: Record<ExportFormat, string> = { csv: CSV_TYPE, xlsx: XLSX_TYPE, pdf: PDF_TYPE };

const WRITERS = { csv: csvStream, xlsx: xlsxStream, pdf: pdfStream } as const;

/**
 * Answers a report as a download: its media type, `Content-Disposition` with the file name, and the
 * file streamed as the client reads it. An answer whose connection moves no byte for
 * STALLED_ANSWER_MS is closed, which ends the reading of its rows (and its database snapshot).
 */
export function sendExport(reply: FastifyReply, format: ExportFormat, table: ExportTable, fileName: string): FastifyReply {
  reply.raw.setTimeout(STALLED_ANSWER_MS, () => reply.raw.destroy());
  reply.header('content-disposition', attachment(fileName));
  reply.type(EXPORT_TYPES[format]).send(WRITERS[format](table));
  return reply;
}
