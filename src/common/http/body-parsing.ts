import { json, NextFunction, Request, Response } from 'express';
import { buildErrorEnvelope } from '../errors/error-envelope';

export const DEFAULT_BODY_LIMIT = '100kb';
/** Bulk import carries up to 10,000 beneficiaries. */
export const BULK_BODY_LIMIT = '10mb';
export const BULK_PATHS = ['/admin/beneficiaries/bulk'];

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

function send(
  res: Response,
  status: number,
  label: 'malformed_request' | 'payload_too_large',
  detail: string,
) {
  res.status(status).json(buildErrorEnvelope(status, label, detail));
}

/** JSON parsing with the contract's envelope for bodies that are not JSON, not an object, or too large. */
export function jsonBodyParsers() {
  const bulk = json({ limit: BULK_BODY_LIMIT, type: () => true });
  const regular = json({ limit: DEFAULT_BODY_LIMIT, type: () => true });
  const parse = (req: Request, res: Response, next: NextFunction) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method)) return next();
    const parser = BULK_PATHS.includes(req.path) ? bulk : regular;
    parser(req, res, next);
  };
  const requireObject = (req: Request, res: Response, next: NextFunction) => {
    const body: unknown = req.body;
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      return send(res, 400, 'malformed_request', 'The request body must be a JSON object.');
    }
    next();
  };
  const onError = (err: BodyParserError, _req: Request, res: Response, next: NextFunction) => {
    if (err.type === 'entity.too.large' || err.status === 413) {
      return send(res, 413, 'payload_too_large', 'The request body is over the size limit.');
    }
    if (err.type === 'entity.parse.failed' || err.status === 400 || err.type?.startsWith('charset')) {
      return send(res, 400, 'malformed_request', 'The request body is not valid JSON.');
    }
    if (err.type === 'encoding.unsupported' || err.status === 415) {
      return send(res, 400, 'malformed_request', 'The request body encoding is not supported.');
    }
    next(err);
  };
  return [parse, requireObject, onError] as const;
}
