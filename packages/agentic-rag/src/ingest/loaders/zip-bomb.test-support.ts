import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A .docx zip bomb for tests: a valid archive whose `word/document.xml` inflates to `unpacked`
 * bytes of Word XML from well under 1% of that. The deflate stream is one flushed block repeated
 * (a full flush resets the dictionary, so copies concatenate into a valid stream) between the
 * document's opening and closing tags, so building a 600 MB bomb costs milliseconds. `declare` is the size the
 * archive claims for the part: the truth, or a lie that a reader trusting the directory believes.
 */
export function docxBomb(unpacked: number, declare: 'truth' | number = 'truth'): Buffer {
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>',
  );
  // One long run of a letter: deflate's best case (~1,000:1), as a real bomb is built.
  const unit = Buffer.from(`<w:p><w:r><w:t>bomb ${'a'.repeat(370_000)}</w:t></w:r></w:p>`);
  const tail = Buffer.from('</w:body></w:document>');
  const copies = Math.max(1, Math.ceil((unpacked - head.length - tail.length) / unit.length));
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const block = flushed(unit);
  const body = Buffer.concat([flushed(head), ...Array<Buffer>(copies).fill(block), deflateRawSync(tail)]);
  let crc = crc32(head);
  for (let copy = 0; copy < copies; copy++) crc = crc32(unit, crc);
  crc = crc32(tail, crc);
  const size = head.length + copies * unit.length + tail.length;
  return zip([
    entry('[Content_Types].xml', CONTENT_TYPES),
    entry('_rels/.rels', RELS),
    { name: 'word/document.xml', data: body, crc, size: declare === 'truth' ? size : declare },
  ]);
}

interface Entry {
  name: string;
  /** Raw deflate data. */
  data: Buffer;
  crc: number;
  /** The uncompressed size the archive declares. */
  size: number;
}

function entry(name: string, text: string): Entry {
  const bytes = Buffer.from(text);
  return { name, data: deflateRawSync(bytes), crc: crc32(bytes), size: bytes.length };
}

/** PKZIP: local headers and data, then the central directory and its end record. */
function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, crc, size } of entries) {
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;

const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
