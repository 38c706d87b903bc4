package dev.caldera.sim.internal;

import java.io.StringReader;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Constant;

/**
 * SnakeYAML's reader over a text that is in memory already, as its code points.
 *
 * <p>SnakeYAML's own {@link StreamReader} reads 1,024 characters at a time and copies everything
 * from the start of the token being scanned into a new window at each read, so scanning one scalar
 * of n characters copies about n²/2,048 code points (an 8 MB string: 40 s). This reader converts
 * the whole text once; every method behaves as the original's.
 */
final class WholeTextReader extends StreamReader {

  private static final String NAME = "'string'";

  private final int[] data;
  private int pointer;
  private int index;
  private int documentIndex;
  private int line;
  private int column;

  WholeTextReader(String text) {
    super(new StringReader(""));
    this.data = text.codePoints().toArray();
    for (int i = 0; i < data.length; i++) {
      if (!isPrintable(data[i])) {
        throw new ReaderException(NAME, i, data[i], "special characters are not allowed");
      }
    }
  }

  @Override
  public Mark getMark() {
    return new Mark(NAME, index, line, column, data, pointer);
  }

  @Override
  public void forward() {
    forward(1);
  }

  @Override
  public void forward(int length) {
    for (int i = 0; i < length && pointer < data.length; i++) {
      int c = data[pointer++];
      index++;
      documentIndex++;
      if (Constant.LINEBR.has(c) || (c == '\r' && pointer < data.length && data[pointer] != '\n')) {
        line++;
        column = 0;
      } else if (c != 0xFEFF) {
        column++;
      }
    }
  }

  @Override
  public int peek() {
    return peek(0);
  }

  @Override
  public int peek(int offset) {
    int at = pointer + offset;
    return at < data.length ? data[at] : '\0';
  }

  @Override
  public String prefix(int length) {
    return new String(data, pointer, Math.min(length, data.length - pointer));
  }

  @Override
  public String prefixForward(int length) {
    String prefix = prefix(length);
    pointer += length;
    index += length;
    documentIndex += length;
    column += length;
    return prefix;
  }

  @Override
  public int getColumn() {
    return column;
  }

  @Override
  public int getDocumentIndex() {
    return documentIndex;
  }

  @Override
  public void resetDocumentIndex() {
    documentIndex = 0;
  }

  @Override
  public int getIndex() {
    return index;
  }

  @Override
  public int getLine() {
    return line;
  }
}
