/** Reading the export as a client would. */

/** RFC 4180 reader: quoted cells may hold commas, quotes (doubled) and line breaks; records end with CRLF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else if (c === "\n" || c === "\r" || c === '"') throw new Error(`bare ${JSON.stringify(c)} outside quotes at ${i}`);
    else cell += c;
  }
  if (quoted || cell !== "" || row.length > 0) throw new Error("file does not end with a complete CRLF-terminated record");
  return rows;
}
