package dev.caldera.support.resource;

import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceView;
import java.util.List;
import java.util.Map;

/**
 * The read-only face of a {@link Resource}: what the session's views hand out ({@link
 * Resource#view()}), so that no cast reaches the mutable vector behind it. It reads the resource
 * live (a node's idle seen through it changes as the session places pods) and answers every {@link
 * ResourceView} method as the resource does.
 */
public final class ReadOnlyResource implements ResourceView {

  final Resource resource;

  ReadOnlyResource(Resource resource) {
    this.resource = resource;
  }

  public Resource copy() {
    return resource.copy();
  }

  @Override
  public double milliCpu() {
    return resource.milliCpu();
  }

  @Override
  public double memory() {
    return resource.memory();
  }

  @Override
  public int maxTaskNum() {
    return resource.maxTaskNum();
  }

  @Override
  public double get(int index) {
    return resource.get(index);
  }

  @Override
  public double get(String name) {
    return resource.get(name);
  }

  @Override
  public boolean has(int index) {
    return resource.has(index);
  }

  @Override
  public boolean has(String name) {
    return resource.has(name);
  }

  @Override
  public int width() {
    return resource.width();
  }

  @Override
  public int[] scalarIndices() {
    return resource.scalarIndices();
  }

  @Override
  public boolean hasScalars() {
    return resource.hasScalars();
  }

  public Resource[] diff(ResourceView rr, Dimension d) {
    return resource.diff(rr, d);
  }

  @Override
  public boolean isEmpty() {
    return resource.isEmpty();
  }

  @Override
  public boolean isZero(String name) {
    return resource.isZero(name);
  }

  @Override
  public int[] resourceIndices() {
    return resource.resourceIndices();
  }

  @Override
  public List<String> resourceNames() {
    return resource.resourceNames();
  }

  @Override
  public boolean less(ResourceView rr, Dimension d) {
    return resource.less(rr, d);
  }

  @Override
  public boolean lessEqual(ResourceView rr, Dimension d) {
    return resource.lessEqual(rr, d);
  }

  @Override
  public List<String> lessEqualWithResourcesName(ResourceView rr, Dimension d) {
    return resource.lessEqualWithResourcesName(rr, d);
  }

  @Override
  public boolean fits(ResourceView rr) {
    return resource.fits(rr);
  }

  @Override
  public boolean fitsWithin(ResourceView base, ResourceView plus, ResourceView minus) {
    return resource.fitsWithin(base, plus, minus);
  }

  @Override
  public List<String> lessEqualWithDimensionAndResourcesName(ResourceView rr, ResourceView req) {
    return resource.lessEqualWithDimensionAndResourcesName(rr, req);
  }

  @Override
  public boolean lessPartly(ResourceView rr, Dimension d) {
    return resource.lessPartly(rr, d);
  }

  @Override
  public boolean lessEqualPartly(ResourceView rr, Dimension d) {
    return resource.lessEqualPartly(rr, d);
  }

  @Override
  public List<String> lessEqualPartlyWithDimension(ResourceView rr, ResourceView req) {
    return resource.lessEqualPartlyWithDimension(rr, req);
  }

  @Override
  public List<String> lessEqualPartlyWithDimensionZeroFiltered(ResourceView rr, ResourceView req) {
    return resource.lessEqualPartlyWithDimensionZeroFiltered(rr, req);
  }

  @Override
  public boolean equal(ResourceView rr, Dimension d) {
    return resource.equal(rr, d);
  }

  @Override
  public List<String> greaterPartly(ResourceView rr, Dimension d) {
    return resource.greaterPartly(rr, d);
  }

  @Override
  public boolean greaterPartlyWithDimension(ResourceView rr, ResourceView req) {
    return resource.greaterPartlyWithDimension(rr, req);
  }

  @Override
  public boolean greaterPartlyWithRelevantDimensions(ResourceView rr, ResourceView req) {
    return resource.greaterPartlyWithRelevantDimensions(rr, req);
  }

  @Override
  public Map<String, Quantity> toList() {
    return resource.toList();
  }

  @Override
  public boolean deepEquals(ResourceView o) {
    return resource.deepEquals(o);
  }

  @Override
  public Object valueKey() {
    return resource.valueKey();
  }

  @Override
  public String toString() {
    return resource.toString();
  }
}
