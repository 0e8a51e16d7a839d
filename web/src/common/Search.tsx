import { SearchInput, useTranslate, type SearchInputProps } from 'react-admin';

/** The list's search box, its placeholder in the reader's language (react-admin passes it as is). */
export const Search = ({ placeholder, ...props }: SearchInputProps & { placeholder: string }) => {
  const translate = useTranslate();
  return <SearchInput {...props} placeholder={translate(placeholder)} />;
};
