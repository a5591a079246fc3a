public enum BookModelsPlaceholder {}
