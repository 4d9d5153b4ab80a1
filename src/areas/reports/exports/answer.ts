import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import { closeWhenStalled } from '../../../route-kit/json-answer.js';
import { attachment } from './disposition.js';
import type { ExportTable } from './table.js';

export type ExportFormat = 'csv' | 'xlsx' | 'pdf';

/** The media types of the export formats, as the operations declare them. */
export const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/**
 * The writer of each format, loaded on its first use: exceljs and pdfkit are large, and a server
 * that never writes a spreadsheet or a PDF does not hold them (docs/performance.md, "Report exports and detailed reports").
 */
const WRITERS: Record<ExportFormat, () => Promise<(table: ExportTable) => Readable>> = {
  csv: async () => (await import('./csv.js')).csvStream,
  xlsx: async () => (await import('./xlsx.js')).xlsxStream,
  pdf: async () => (await import('./pdf.js')).pdfStream,
};

/**
 * Answers a report as a download: its media type, `Content-Disposition` with the file name, and the
 * file streamed as the client reads it. An answer whose connection moves no byte for
 * LONG_READ_STALL_MS is closed, which ends the reading of its rows (and its database snapshot).
 */
export async function sendExport(reply: FastifyReply, format: ExportFormat, table: ExportTable, fileName: string): Promise<FastifyReply> {
  const writer = await WRITERS[format]();
  closeWhenStalled(reply);
  reply.header('content-disposition', attachment(fileName));
  reply.type(EXPORT_TYPES[format]).send(writer(table));
  return reply;
}
