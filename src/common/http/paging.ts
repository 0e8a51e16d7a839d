import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** `?page=1&page_size=50`: 1-based pages of at most 200 items. */
export class PageQueryDto {
  @ApiPropertyOptional({ example: '1', description: '1-based' })
  @IsOptional()
  @Matches(/^[1-9]\d{0,5}$/, { message: 'validation.positiveInteger' })
  @IsString()
  page?: string;

  @ApiPropertyOptional({ example: '50', description: `1 to ${MAX_PAGE_SIZE}; default ${DEFAULT_PAGE_SIZE}` })
  @IsOptional()
  @Matches(/^([1-9]\d?|1\d\d|200)$/, { message: 'validation.pageSize' })
  @IsString()
  page_size?: string;
}

export interface Paging {
  page: number;
  pageSize: number;
  offset: number;
}

export function paging(query: PageQueryDto): Paging {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.page_size ?? DEFAULT_PAGE_SIZE);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** The list answer: `{ data, page, page_size, total }`. */
export interface Page<T> {
  data: T[];
  page: number;
  page_size: number;
  total: number;
}

export function pageOf<T>(data: T[], { page, pageSize }: Paging, total: number): Page<T> {
  return { data, page, page_size: pageSize, total };
}

/** The paging fields of a list answer, for Swagger (each list DTO adds its own `data`). */
export class PageMetaDto {
  @ApiProperty({ example: 1 })
  page: number;

  @ApiProperty({ example: 50 })
  page_size: number;

  @ApiProperty({ example: 1, description: 'Items matching the filter, over all pages' })
  total: number;
}
